import { UnprocessableEntityException } from '@nestjs/common';
import { plainToInstance } from 'class-transformer';
import { getMetadataStorage } from 'class-validator';
import { createValidationPipe } from '../http/validation';
import { TriggerEventRequestDto } from './trigger-event.dto';

const pipe = createValidationPipe();
const transform = (body: unknown) => pipe.transform(body, { type: 'body', metatype: TriggerEventRequestDto }) as Promise<TriggerEventRequestDto>;

async function refusal(body: unknown): Promise<unknown> {
  try {
    await transform(body);
  } catch (error) {
    expect(error).toBeInstanceOf(UnprocessableEntityException);
    return (error as UnprocessableEntityException).getResponse();
  }
  throw new Error('expected a 422');
}

describe('TriggerEventRequestDto through the validation pipe', () => {
  it('a valid body becomes the instance class-transformer makes of it, without it', async () => {
    const bodies = [
      { name: 'order-shipped', to: 'user-1' },
      {
        name: 'w',
        to: [
          { subscriberId: 'u', email: 'a@b.c' },
          { type: 'Topic', topicKey: 't' },
        ],
        payload: { a: { b: [1, 2] } },
        overrides: {},
      },
      {
        name: 'w',
        to: { subscriberId: 'u' },
        payload: null,
        transactionId: 'x'.repeat(255),
        actor: 'a',
        tenant: { identifier: 't' },
        context: { tenant: 'acme' },
      },
    ];
    for (const body of bodies) {
      const accepted = await transform(body);
      expect(accepted).toBeInstanceOf(TriggerEventRequestDto);
      expect(accepted).toEqual(plainToInstance(TriggerEventRequestDto, body));
      // not copied by class-transformer: the plain path took it
      expect(accepted.to).toBe(body.to);
    }
  });

  it('the plain check covers the decorators the DTO has (a new one must be added to it too)', () => {
    const decorators = getMetadataStorage()
      .getTargetValidationMetadatas(TriggerEventRequestDto, '', true, false)
      .map(({ propertyName, name, type, constraints }) => `${propertyName}:${name ?? type}${name === 'maxLength' ? `(${constraints.join()})` : ''}`);
    expect(decorators.sort()).toEqual([
      'actor:isOptional',
      'context:isOptional',
      'name:isNotEmpty',
      'name:isString',
      'overrides:isObject',
      'overrides:isOptional',
      'payload:isObject',
      'payload:isOptional',
      'tenant:isOptional',
      'to:isDefined',
      'transactionId:isOptional',
      'transactionId:isString',
      'transactionId:maxLength(255)',
    ]);
  });

  it('any other body goes the full way: unknown keys are dropped, and errors answer as before', async () => {
    const accepted = await transform({ name: 'w', to: 'u', bridgeUrl: 'https://example.com' });
    expect(accepted).toEqual(plainToInstance(TriggerEventRequestDto, { name: 'w', to: 'u' }));
    expect(await refusal({ name: '', to: 'u' })).toEqual({
      message: 'Validation Error',
      errors: { name: { messages: ['name should not be empty'], value: '' } },
    });
    expect(await refusal({ name: 'w', to: null, payload: [], transactionId: 'x'.repeat(256) })).toMatchObject({
      errors: {
        to: { messages: ['to should not be null or undefined'] },
        payload: { messages: ['payload must be an object'] },
        transactionId: { messages: ['transactionId must be shorter than or equal to 255 characters'] },
      },
    });
  });
});
