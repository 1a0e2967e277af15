import { EnvironmentScope } from '@app/kernel';
import { TriggerEventCommand, TriggerEventResult } from '@app/delivery';
import { TriggerEventRequestDto, TriggerEventResponseDto } from './trigger-event.dto';

/** Request body → use-case command; `to`, `actor` and `tenant` pass as given (the use case parses the unions). */
export function toTriggerEventCommand(scope: EnvironmentScope, body: TriggerEventRequestDto): TriggerEventCommand {
  return {
    scope,
    name: body.name,
    to: body.to,
    ...(body.payload !== undefined ? { payload: body.payload } : {}),
    ...(body.overrides !== undefined ? { overrides: body.overrides } : {}),
    ...(body.transactionId !== undefined ? { transactionId: body.transactionId } : {}),
    ...(body.actor !== undefined ? { actor: body.actor } : {}),
    ...(body.tenant !== undefined ? { tenant: body.tenant } : {}),
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
