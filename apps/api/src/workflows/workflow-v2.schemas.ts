import { StepType } from '@app/workflows';

/**
 * The JSON Schema of each step type's controls: a v2 write is checked against it, and
 * `controls.dataSchema` shows it (an editor builds its form from it); `uiSchema.group` is the group
 * an editor files the controls under.
 */
const skip = { type: 'object', description: 'JSON Logic saying when the step runs (it is skipped when it does not hold)', additionalProperties: true };
const redirect = {
  type: 'object',
  properties: { url: { type: 'string' }, target: { type: 'string', enum: ['_self', '_blank', '_parent', '_top', '_unfencedTop'] } },
  required: ['url'],
  additionalProperties: false,
};
const action = { type: 'object', properties: { label: { type: 'string' }, redirect }, additionalProperties: false };
const timeUnit = { type: 'string', enum: ['seconds', 'minutes', 'hours', 'days', 'weeks', 'months'] };
const pair = { type: 'object', properties: { key: { type: 'string' }, value: { type: 'string' } }, required: ['key', 'value'] };
// Other keys are kept as given (editors store their own state beside the controls).
const object = (properties: Record<string, unknown>, required: string[] = []) => ({
  type: 'object',
  properties: { skip, ...properties },
  ...(required.length ? { required } : {}),
});

export const CONTROL_SCHEMAS: Record<StepType, { group: string; dataSchema: Record<string, unknown> }> = {
  in_app: {
    group: 'IN_APP',
    dataSchema: object({
      body: { type: 'string' },
      subject: { type: 'string' },
      avatar: { type: 'string' },
      primaryAction: action,
      secondaryAction: action,
      redirect,
      data: { type: 'object', additionalProperties: true },
      disableOutputSanitization: { type: 'boolean', default: false },
    }),
  },
  email: {
    group: 'EMAIL',
    dataSchema: object({
      subject: { type: 'string' },
      body: { type: 'string' },
      editorType: { type: 'string', enum: ['block', 'html'], default: 'block' },
      disableOutputSanitization: { type: 'boolean', default: false },
      layoutId: { type: ['string', 'null'] },
      from: { type: 'object', properties: { email: { type: 'string', format: 'email' }, name: { type: 'string' } }, additionalProperties: false },
      useProviderDefaults: { type: 'boolean', default: false },
      replyTo: { type: 'string', format: 'email' },
      preheader: { type: 'string' },
    }),
  },
  sms: { group: 'SMS', dataSchema: object({ body: { type: 'string' } }) },
  chat: { group: 'CHAT', dataSchema: object({ body: { type: 'string' }, editorType: { type: 'string', enum: ['block', 'text'] } }) },
  push: { group: 'PUSH', dataSchema: object({ subject: { type: 'string' }, body: { type: 'string' } }) },
  delay: {
    group: 'DELAY',
    dataSchema: object({
      type: { type: 'string', enum: ['regular', 'timed', 'dynamic'], default: 'regular' },
      amount: { type: 'number', exclusiveMinimum: 0 },
      unit: timeUnit,
      cron: { type: 'string', minLength: 1 },
      dynamicKey: { type: 'string', pattern: '^payload(\\.[^.\\s]+)+$' },
    }),
  },
  digest: {
    group: 'DIGEST',
    dataSchema: object({
      type: { type: 'string', enum: ['regular', 'timed'], default: 'regular' },
      amount: { type: 'number', exclusiveMinimum: 0 },
      unit: timeUnit,
      lookBackWindow: { type: 'object', properties: { amount: { type: 'number' }, unit: timeUnit }, required: ['amount', 'unit'] },
      cron: { type: 'string', minLength: 1 },
      digestKey: { type: 'string' },
    }),
  },
  throttle: {
    group: 'THROTTLE',
    dataSchema: object(
      {
        type: { type: 'string', enum: ['fixed', 'dynamic'], default: 'fixed' },
        amount: { type: 'number', exclusiveMinimum: 0 },
        unit: { type: 'string', enum: ['minutes', 'hours', 'days'] },
        dynamicKey: { type: 'string' },
        threshold: { type: 'integer', minimum: 1 },
        throttleKey: { type: 'string' },
      },
      ['threshold'],
    ),
  },
  http_request: {
    group: 'HTTP_REQUEST',
    dataSchema: object(
      {
        method: { type: 'string', enum: ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'] },
        url: { type: 'string', minLength: 1 },
        headers: { type: 'array', items: pair },
        body: { oneOf: [{ type: 'string' }, { type: 'array', items: pair }] },
        responseBodySchema: { type: 'object', additionalProperties: true },
        enforceSchemaValidation: { type: 'boolean', default: false },
        continueOnFailure: { type: 'boolean', default: false },
      },
      ['method', 'url'],
    ),
  },
};

/** The subscriber fields a template may use (`{{subscriber.<field>}}`). */
export const SUBSCRIBER_VARIABLES_SCHEMA = {
  type: 'object',
  properties: Object.fromEntries(
    ['subscriberId', 'firstName', 'lastName', 'email', 'phone', 'avatar', 'locale', 'timezone'].map((field) => [field, { type: 'string' }]),
  ),
  additionalProperties: true,
};
