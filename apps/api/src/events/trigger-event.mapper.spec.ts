import { ArgumentMetadata, UnprocessableEntityException } from '@nestjs/common';
import { TriggerEventResponseDto$inboundSchema } from '@novu/api/models/components';
import { createValidationPipe } from '../http/validation';
import { TriggerEventRequestDto } from './trigger-event.dto';
import { toTriggerEventCommand, toTriggerEventResponse } from './trigger-event.mapper';

const scope = { organizationId: 'org', environmentId: 'env' };
const asBody: ArgumentMetadata = { type: 'body', metatype: TriggerEventRequestDto };
const validate = (body: unknown) => createValidationPipe().transform(body, asBody) as Promise<TriggerEventRequestDto>;

async function validationErrors(body: unknown): Promise<Record<string, unknown>> {
  const error = await validate(body).then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(UnprocessableEntityException);
  return ((error as UnprocessableEntityException).getResponse() as { errors: Record<string, unknown> }).errors;
}

describe('trigger event mapping', () => {
  it('passes the recipient, actor, tenant and context unions through validation untouched', async () => {
    const to = ['user-1', { subscriberId: 'user-2', email: 'a@example.com', data: { x: 1 } }, { type: 'Topic', topicKey: 'news', exclude: ['user-3'] }];
    const body = await validate({
      name: 'welcome',
      to,
      payload: { orderId: 'A-1', nested: { n: 2 } },
      overrides: { email: { subject: 'Hi' } },
      transactionId: 'txn-1',
      actor: { subscriberId: 'boss', firstName: null },
      tenant: 'acme',
      context: { tenant: { id: 'acme', data: { plan: 'pro' } }, app: 'jira' },
      unknownField: 'dropped',
    });
    expect(toTriggerEventCommand(scope, body)).toEqual({
      scope,
      name: 'welcome',
      to,
      payload: { orderId: 'A-1', nested: { n: 2 } },
      overrides: { email: { subject: 'Hi' } },
      transactionId: 'txn-1',
      actor: { subscriberId: 'boss', firstName: null },
      tenant: 'acme',
      context: { tenant: { id: 'acme', data: { plan: 'pro' } }, app: 'jira' },
    });
  });

  it('leaves absent optional fields out of the command', async () => {
    const command = toTriggerEventCommand(scope, await validate({ name: 'welcome', to: 'user-1' }));
    expect(command).toEqual({ scope, name: 'welcome', to: 'user-1' });
    expect(Object.keys(command)).not.toContain('payload');
  });

  it('rejects a missing name or to, non-object payload/overrides and a long transactionId with field errors', async () => {
    expect(Object.keys(await validationErrors({ to: 'user-1' }))).toEqual(['name']);
    expect(Object.keys(await validationErrors({ name: '', to: 'user-1' }))).toEqual(['name']);
    expect(Object.keys(await validationErrors({ name: 'welcome' }))).toEqual(['to']);
    expect(Object.keys(await validationErrors({ name: 'w', to: 'u', payload: 'x', overrides: [1] })).sort()).toEqual(['overrides', 'payload']);
    expect(Object.keys(await validationErrors({ name: 'w', to: 'u', transactionId: 'x'.repeat(256) }))).toEqual(['transactionId']);
  });

  it('answers with the shape the Novu SDK parses', () => {
    const response = toTriggerEventResponse({ acknowledged: true, status: 'processed', transactionId: 'txn_1' });
    expect(response).toEqual({ acknowledged: true, status: 'processed', transactionId: 'txn_1', activityFeedLink: '/v1/notifications?transactionId=txn_1' });
    expect(TriggerEventResponseDto$inboundSchema.parse(response)).toEqual(response);
  });
});
