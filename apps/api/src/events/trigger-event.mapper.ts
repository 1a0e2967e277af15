import { EnvironmentScope } from '@app/kernel';
import { TriggerEventCommand, TriggerEventResult } from '@app/delivery';
import { toErrorResponse } from '../http/error-response';
import { BroadcastEventRequestDto, BulkTriggerEventResultDto, TriggerEventRequestDto, TriggerEventResponseDto } from './trigger-event.dto';

/** Request body → use-case command; `to`, `actor`, `tenant` and `context` pass as given (the use case parses the unions). */
export function toTriggerEventCommand(scope: EnvironmentScope, body: TriggerEventRequestDto): TriggerEventCommand {
  return { ...commandFields(scope, body), to: body.to };
}

/** A broadcast has no `to`: it goes to every subscriber of the environment. */
export function toBroadcastCommand(scope: EnvironmentScope, body: BroadcastEventRequestDto): TriggerEventCommand {
  return { ...commandFields(scope, body), broadcast: true };
}

function commandFields(scope: EnvironmentScope, body: BroadcastEventRequestDto): TriggerEventCommand {
  return {
    scope,
    name: body.name,
    ...(body.payload !== undefined ? { payload: body.payload } : {}),
    ...(body.overrides !== undefined ? { overrides: body.overrides } : {}),
    ...(body.transactionId !== undefined ? { transactionId: body.transactionId } : {}),
    ...(body.actor !== undefined ? { actor: body.actor } : {}),
    ...(body.tenant !== undefined ? { tenant: body.tenant } : {}),
    ...(body.context !== undefined ? { context: body.context } : {}),
  };
}

export function toTriggerEventResponse(result: TriggerEventResult): TriggerEventResponseDto {
  return {
    acknowledged: result.acknowledged,
    status: result.status,
    transactionId: result.transactionId,
    activityFeedLink: activityFeedLink(result.transactionId),
  };
}

/** Novu links its dashboard's feed; this service has none, so it links its own activity feed of the transaction (same base URL, API key needed). */
export function activityFeedLink(transactionId: string): string {
  return `/v1/notifications?transactionId=${encodeURIComponent(transactionId)}`;
}

/**
 * One refused event of a bulk trigger, as Novu answers it: `{acknowledged: true, status: 'error',
 * error: [messages]}` in its place. The messages are those the error would answer alone (a
 * validation error names each field); an unexpected error is logged with an errorId, as a 500 would be.
 */
export function toBulkItemError(error: unknown, path: string): BulkTriggerEventResultDto {
  const { body } = toErrorResponse(error, path);
  const fields = (body.errors ?? {}) as Record<string, { messages: string[] }>;
  const messages = Object.entries(fields).flatMap(([field, { messages }]) => messages.map((m) => (m.startsWith(field) ? m : `${field}: ${m}`)));
  return { acknowledged: true, status: 'error', error: messages.length ? messages : [String(body.message)] };
}
