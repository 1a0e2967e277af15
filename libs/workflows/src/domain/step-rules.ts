import { randomUUID } from 'node:crypto';
import { Channel, Condition, ConditionPart, PreviousStepConditionPart, StepCondition, StepConditionPart, isPreviousStepPart, newId } from '@app/kernel';
import { CronExpressionParser } from 'cron-parser';
import {
  DELAY_TYPES,
  DYNAMIC_KEY_PATTERN,
  DelayMetadata,
  DigestMetadata,
  HTTP_METHODS,
  HttpRequestMetadata,
  ReplyCallback,
  THROTTLE_UNITS,
  ThrottleMetadata,
  StepMetadata,
  StepTemplate,
  StepType,
  StepVariant,
  WorkflowStep,
  isChannelStep,
} from './workflow';

export type FieldErrors = Record<string, { messages: string[]; value: unknown }>;

/** A previous-step part as a caller sends it: without `step`, it reads the nearest channel step before its own. */
export type PreviousStepPartDraft = Omit<PreviousStepConditionPart, 'step'> & { step?: string };
export type StepFilterDraft = Condition<ConditionPart | PreviousStepPartDraft>;

function isPreviousStepDraft(part: ConditionPart | PreviousStepPartDraft): part is PreviousStepPartDraft {
  return part.on === 'previousStep';
}

/** A step as a caller describes it; ids are kept when they name a step the workflow already has. */
export interface StepDraft {
  id?: string;
  uuid?: string;
  name?: string;
  /** The v2 step identifier; absent: the slug of the name (made unique in the workflow). */
  stepId?: string;
  controlValues?: Record<string, unknown>;
  skip?: Record<string, unknown>;
  active?: boolean;
  shouldStopOnFail?: boolean;
  template: Omit<StepTemplate, 'id'> & { id?: string };
  filters?: StepFilterDraft[];
  metadata?: StepMetadataDraft;
  replyCallback?: ReplyCallback;
  variants?: Omit<StepDraft, 'variants'>[];
}

/** Digest, delay, throttle and HTTP request fields together, as callers send them; `type` is checked against the step's type. */
export type StepMetadataDraft = Omit<Partial<DigestMetadata>, 'type'> &
  Omit<Partial<DelayMetadata>, 'type'> &
  Omit<Partial<ThrottleMetadata>, 'type' | 'unit' | 'amount' | 'dynamicKey'> &
  Partial<HttpRequestMetadata> & { type?: string };

const AT_TIME = /^([01]\d|2[0-3]):[0-5]\d$/;

/** The rules class-validator cannot express per field: what each step type needs. */
export function validateSteps(steps: readonly StepDraft[]): FieldErrors {
  const errors: FieldErrors = {};
  const fail = (path: string, message: string, value: unknown) => {
    const entry = (errors[path] ??= { messages: [], value: value === undefined ? 'No Value Recorded' : value });
    entry.messages.push(message);
  };
  steps.forEach((step, index) => {
    checkStep(step, `steps.${index}`, fail);
    step.variants?.forEach((variant, variantIndex) => {
      const path = `steps.${index}.variants.${variantIndex}`;
      if (variant.template.type !== step.template.type) {
        fail(`${path}.template.type`, `a variant must have its step's type (${step.template.type})`, variant.template.type);
      }
      checkStep(variant, path, fail);
    });
  });
  return errors;
}

type Fail = (path: string, message: string, value: unknown) => void;

function checkStep(step: Omit<StepDraft, 'variants'>, path: string, fail: Fail): void {
  const type = step.template.type;
  const metadata = step.metadata;
  if (type === 'digest') {
    if (!metadata) return fail(`${path}.metadata`, 'a digest step needs metadata (type, amount, unit…)', metadata);
    const digestType = metadata.type ?? (metadata.backoff ? 'backoff' : 'regular');
    if (!['regular', 'backoff', 'timed'].includes(digestType)) {
      return fail(`${path}.metadata.type`, 'digest type must be one of: regular, backoff, timed', metadata.type);
    }
    if (digestType === 'timed') return checkTimed(metadata, `${path}.metadata`, fail);
    requireWindow(metadata.amount, metadata.unit, `${path}.metadata`, 'amount', 'unit', fail);
    if (digestType === 'backoff' || metadata.backoff) {
      requireWindow(metadata.backoffAmount, metadata.backoffUnit, `${path}.metadata`, 'backoffAmount', 'backoffUnit', fail);
    }
  } else if (type === 'delay') {
    if (!metadata) return fail(`${path}.metadata`, 'a delay step needs metadata (type, amount, unit, delayPath or dynamicKey)', metadata);
    const delayType = metadata.type ?? 'regular';
    if (delayType === 'regular') requireWindow(metadata.amount, metadata.unit, `${path}.metadata`, 'amount', 'unit', fail);
    else if (delayType === 'timed') checkCron(metadata.cron, `${path}.metadata.cron`, fail);
    else if (delayType === 'scheduled') {
      if (!metadata.delayPath) fail(`${path}.metadata.delayPath`, 'a scheduled delay needs delayPath (the payload path of an ISO date)', metadata.delayPath);
    } else if (delayType === 'dynamic') {
      // Only a payload path can hold the value at run time (Novu reads it from the payload alone).
      if (typeof metadata.dynamicKey !== 'string' || !DYNAMIC_KEY_PATTERN.test(metadata.dynamicKey)) {
        fail(`${path}.metadata.dynamicKey`, 'a dynamic delay needs dynamicKey, a payload path such as payload.sendAt', metadata.dynamicKey);
      }
    } else fail(`${path}.metadata.type`, `delay type must be one of: ${DELAY_TYPES.join(', ')}`, metadata.type);
  } else if (type === 'throttle') {
    checkThrottle(metadata, `${path}.metadata`, fail);
  } else if (type === 'http_request') {
    checkHttpRequest(metadata, `${path}.metadata`, fail);
  }
  if (step.replyCallback?.active && !step.replyCallback.url) {
    fail(`${path}.replyCallback.url`, 'an active reply callback needs a url', step.replyCallback.url);
  }
}

function requireWindow(amount: unknown, unit: unknown, path: string, amountField: string, unitField: string, fail: Fail): void {
  if (typeof amount !== 'number' || !Number.isFinite(amount) || amount <= 0) {
    fail(`${path}.${amountField}`, `${amountField} must be a positive number`, amount);
  }
  if (unit === undefined) fail(`${path}.${unitField}`, `${unitField} is required`, unit);
}

function checkCron(cron: unknown, path: string, fail: Fail): void {
  try {
    if (typeof cron !== 'string') throw new Error('not a string');
    CronExpressionParser.parse(cron);
  } catch {
    fail(path, `${path.split('.').pop()} must be a valid cron expression`, cron);
  }
}

function checkThrottle(metadata: StepMetadataDraft | undefined, path: string, fail: Fail): void {
  if (!metadata) return fail(path, 'a throttle step needs threshold and a window (amount and unit, or dynamicKey)', metadata);
  if (typeof metadata.threshold !== 'number' || !Number.isInteger(metadata.threshold) || metadata.threshold < 1) {
    fail(`${path}.threshold`, 'threshold must be a whole number of at least 1', metadata.threshold);
  }
  const throttleType = metadata.type ?? 'fixed';
  if (throttleType === 'fixed') {
    requireWindow(metadata.amount, metadata.unit, path, 'amount', 'unit', fail);
    if (metadata.unit !== undefined && !(THROTTLE_UNITS as readonly unknown[]).includes(metadata.unit)) {
      fail(`${path}.unit`, `unit must be one of: ${THROTTLE_UNITS.join(', ')}`, metadata.unit);
    }
  } else if (throttleType === 'dynamic') {
    if (typeof metadata.dynamicKey !== 'string' || !DYNAMIC_KEY_PATTERN.test(metadata.dynamicKey)) {
      fail(`${path}.dynamicKey`, 'a dynamic throttle needs dynamicKey, a payload path such as payload.window', metadata.dynamicKey);
    }
  } else fail(`${path}.type`, 'throttle type must be one of: fixed, dynamic', metadata.type);
}

function checkHttpRequest(metadata: StepMetadataDraft | undefined, path: string, fail: Fail): void {
  if (!metadata) return fail(path, 'an HTTP request step needs method and url', metadata);
  if (!(HTTP_METHODS as readonly unknown[]).includes(metadata.method))
    fail(`${path}.method`, `method must be one of: ${HTTP_METHODS.join(', ')}`, metadata.method);
  if (typeof metadata.url !== 'string' || !metadata.url.trim()) fail(`${path}.url`, 'url is required', metadata.url);
  const pairs = (value: unknown) => Array.isArray(value) && value.every((pair) => typeof pair?.key === 'string' && typeof pair?.value === 'string');
  if (metadata.headers !== undefined && !pairs(metadata.headers)) fail(`${path}.headers`, 'headers must be a list of {key, value} strings', metadata.headers);
  if (metadata.body !== undefined && typeof metadata.body !== 'string' && !pairs(metadata.body)) {
    fail(`${path}.body`, 'body must be a string or a list of {key, value} strings', metadata.body);
  }
  const schema = metadata.responseBodySchema;
  if (schema !== undefined && (schema === null || typeof schema !== 'object' || Array.isArray(schema))) {
    fail(`${path}.responseBodySchema`, 'responseBodySchema must be a JSON Schema object', schema);
  }
}

function checkTimed(metadata: StepMetadataDraft, path: string, fail: Fail): void {
  const timed = metadata.timed;
  if (!timed) return fail(`${path}.timed`, 'a timed digest needs timed (cronExpression, or atTime with weekDays/monthDays)', timed);
  if (timed.cronExpression !== undefined) return checkCron(timed.cronExpression, `${path}.timed.cronExpression`, fail);
  if (!metadata.unit) fail(`${path}.unit`, 'a timed digest without cronExpression needs unit (minutes, hours, days, weeks, months)', metadata.unit);
  if (timed.atTime !== undefined && !AT_TIME.test(timed.atTime)) fail(`${path}.timed.atTime`, 'atTime must be HH:mm (24-hour)', timed.atTime);
  if (metadata.unit === 'weeks' && !timed.weekDays?.length) fail(`${path}.timed.weekDays`, 'a weekly timed digest needs weekDays', timed.weekDays);
  if (metadata.unit === 'months' && timed.monthlyType !== 'on' && !timed.monthDays?.length) {
    fail(`${path}.timed.monthDays`, 'a monthly timed digest needs monthDays, or monthlyType "on" with ordinal and ordinalValue', timed.monthDays);
  }
  if (timed.monthlyType === 'on' && (!timed.ordinal || !timed.ordinalValue)) {
    fail(`${path}.timed.ordinal`, 'monthlyType "on" needs ordinal and ordinalValue', timed.ordinal);
  }
}

/**
 * Turns drafts into steps. A draft whose `_id` names a current step keeps that step's ids
 * (uuid, template id), so messages and jobs that point at it stay valid across updates.
 */
export function buildSteps(drafts: readonly StepDraft[], current: readonly WorkflowStep[] = []): WorkflowStep[] {
  const known = new Map<string, StepVariant>();
  for (const step of current) for (const variant of [step, ...step.variants]) known.set(variant.id, variant);
  const built: WorkflowStep[] = [];
  for (const draft of drafts) {
    const nearestChannelStep = built.findLast((step) => isChannelStep(step.template.type))?.uuid;
    const build = (variant: Omit<StepDraft, 'variants'>): StepVariant => {
      const previous = variant.id ? known.get(variant.id) : undefined;
      const type: StepType = variant.template.type;
      const { id: _ignored, ...template } = variant.template;
      return {
        id: previous?.id ?? newId(),
        uuid: variant.uuid ?? previous?.uuid ?? randomUUID(),
        name: variant.name ?? variant.template.name ?? defaultStepName(type),
        active: variant.active ?? true,
        shouldStopOnFail: variant.shouldStopOnFail ?? false,
        ...(variant.stepId || previous?.stepId ? { stepId: variant.stepId ?? previous?.stepId } : {}),
        ...(variant.controlValues ? { controlValues: variant.controlValues } : {}),
        ...(variant.skip ? { skip: variant.skip } : {}),
        template: { ...template, id: previous?.template.id ?? newId(), type },
        filters: (variant.filters ?? []).map((filter) => linkPreviousStep(filter, nearestChannelStep)),
        ...(isChannelStep(type) || !variant.metadata ? {} : { metadata: normalizeMetadata(type, variant.metadata) }),
        ...(variant.replyCallback ? { replyCallback: variant.replyCallback } : {}),
      };
    };
    built.push({ ...build(draft), variants: (draft.variants ?? []).map(build) });
  }
  return built;
}

/** A previous-step part without `step` names the nearest channel step before (none: left empty, which previousStepFilterErrors refuses). */
function linkPreviousStep(filter: StepFilterDraft, nearestChannelStep: string | undefined): StepCondition {
  const children = filter.children.map((part): StepConditionPart =>
    isPreviousStepDraft(part) ? { on: 'previousStep', step: part.step ?? nearestChannelStep ?? '', stepType: part.stepType } : part,
  );
  return { ...filter, children };
}

/**
 * Previous-step filters must name an earlier channel step of the workflow (the one whose
 * message they read); a step of another type, a later one or an unknown uuid never has one.
 */
export function previousStepFilterErrors(steps: readonly WorkflowStep[]): FieldErrors {
  const errors: FieldErrors = {};
  steps.forEach((step, index) => {
    const earlier = new Set(
      steps
        .slice(0, index)
        .filter((s) => isChannelStep(s.template.type))
        .map((s) => s.uuid),
    );
    const check = (variant: StepVariant, path: string) =>
      variant.filters.forEach((filter, f) =>
        filter.children.forEach((part, c) => {
          if (!isPreviousStepPart(part) || earlier.has(part.step)) return;
          errors[`${path}.filters.${f}.children.${c}.step`] = {
            messages: ['a previousStep filter must name (step) the uuid of an earlier channel step of this workflow'],
            value: part.step === '' ? 'No Value Recorded' : part.step,
          };
        }),
      );
    check(step, `steps.${index}`);
    step.variants.forEach((variant, v) => check(variant, `steps.${index}.variants.${v}`));
  });
  return errors;
}

function defaultStepName(type: StepType): string {
  const names: Record<StepType, string> = {
    in_app: 'In-App',
    email: 'Email',
    sms: 'SMS',
    chat: 'Chat',
    push: 'Push',
    digest: 'Digest',
    delay: 'Delay',
    throttle: 'Throttle',
    http_request: 'HTTP Request',
  };
  return names[type];
}

// Keeps only the fields that mean something for the step's type, with its type spelled out.
function normalizeMetadata(type: Exclude<StepType, Channel>, metadata: NonNullable<StepDraft['metadata']>): StepMetadata {
  const pick = <K extends string>(keys: K[]) =>
    Object.fromEntries(
      keys.filter((key) => (metadata as Record<string, unknown>)[key] !== undefined).map((key) => [key, (metadata as Record<string, unknown>)[key]]),
    );
  if (type === 'delay') {
    return { ...pick(['amount', 'unit', 'delayPath', 'dynamicKey', 'cron']), type: (metadata.type as DelayMetadata['type']) ?? 'regular' };
  }
  if (type === 'throttle') {
    return {
      ...pick(['amount', 'unit', 'dynamicKey', 'throttleKey']),
      threshold: metadata.threshold!,
      type: (metadata.type as ThrottleMetadata['type']) ?? 'fixed',
    };
  }
  if (type === 'http_request') {
    return {
      ...pick(['body', 'responseBodySchema', 'enforceSchemaValidation', 'continueOnFailure']),
      method: metadata.method!,
      url: metadata.url!,
      headers: metadata.headers ?? [],
    };
  }
  const digestType = (metadata.type as DigestMetadata['type']) ?? (metadata.backoff ? 'backoff' : 'regular');
  return {
    ...pick(['amount', 'unit', 'digestKey', 'backoff', 'backoffAmount', 'backoffUnit', 'updateMode', 'timed']),
    type: digestType,
  };
}
