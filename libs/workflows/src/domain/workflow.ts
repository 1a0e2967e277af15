import { Channel, ChannelFlags, StepCondition, isChannel } from '@app/kernel';

/** Step types Novu's v1 API knows: the five channels plus the two waiting steps. */
export const V1_STEP_TYPES = ['in_app', 'email', 'sms', 'chat', 'push', 'digest', 'delay'] as const;
/** Every step type a workflow may hold: v1's, and v2's throttle and HTTP request steps. */
export const STEP_TYPES = [...V1_STEP_TYPES, 'throttle', 'http_request'] as const;
export type StepType = (typeof STEP_TYPES)[number];

export function isChannelStep(type: StepType): type is Channel {
  return isChannel(type);
}

export const TIME_UNITS = ['seconds', 'minutes', 'hours', 'days', 'weeks', 'months'] as const;
export type TimeUnit = (typeof TIME_UNITS)[number];

export const DIGEST_TYPES = ['regular', 'backoff', 'timed'] as const;
export type DigestType = (typeof DIGEST_TYPES)[number];

/** `timed`: until the next time a cron expression names (v2). */
export const DELAY_TYPES = ['regular', 'scheduled', 'dynamic', 'timed'] as const;
export type DelayType = (typeof DELAY_TYPES)[number];

export const WEEK_DAYS = ['monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday'] as const;
export type WeekDay = (typeof WEEK_DAYS)[number];

export const ORDINALS = ['1', '2', '3', '4', '5', 'last'] as const;
export const ORDINAL_VALUES = ['day', 'weekday', 'weekend', 'sunday', 'monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday'] as const;
export const MONTHLY_TYPES = ['each', 'on'] as const;

export interface EmailBlock {
  type: 'text' | 'button';
  content: string;
  url?: string;
  styles?: { textAlign?: 'left' | 'right' | 'center' };
}

/** Where a click leads; `target` as an HTML link's (v2 in-app). */
export interface Redirect {
  url?: string;
  target?: '_self' | '_blank' | '_parent' | '_top' | '_unfencedTop';
}

export interface CtaButton {
  type: 'primary' | 'secondary';
  content: string;
  resultContent?: string;
  /** The button's own link (v2 in-app actions). */
  redirect?: Redirect;
}

export interface MessageCta {
  type: 'redirect';
  data?: Redirect;
  action?: { buttons?: CtaButton[] };
}

/** What one step renders: the message template of Novu's v1 model. */
export interface StepTemplate {
  id: string;
  type: StepType;
  name?: string;
  /** A string, or (email) editor blocks. */
  content?: string | EmailBlock[];
  contentType?: 'editor' | 'customHtml';
  subject?: string;
  preheader?: string;
  title?: string;
  senderName?: string;
  cta?: MessageCta;
  avatar?: string;
  /** Novu's in-app avatar option: the trigger's actor (`user`), a system icon, a custom URL, or `none`. */
  actor?: StepActor;
  /** Payload variables the step declares; a `defaultValue` fills a payload field the trigger left out. */
  variables?: TemplateVariable[];
  /** In-app: data handed to the Inbox with the notification (v2), its string values rendered. */
  data?: Record<string, unknown>;
  /** Email: the email layout to wrap the body in (v2; null: none). */
  layoutId?: string | null;
  /** Email: Reply-To (v2). */
  replyTo?: string;
  /** Email: the From address (v2 `from.email`; absent: the integration's). */
  senderEmail?: string;
  /** Email: the body is Novu's block editor document (v2 `editorType: block`, a JSON string) or HTML. */
  editorType?: 'block' | 'html';
  /** Rendered values are not sanitised (v2 `disableOutputSanitization`). */
  disableOutputSanitization?: boolean;
}

export interface TimedDigestConfig {
  atTime?: string;
  weekDays?: WeekDay[];
  monthDays?: number[];
  ordinal?: (typeof ORDINALS)[number];
  ordinalValue?: (typeof ORDINAL_VALUES)[number];
  monthlyType?: (typeof MONTHLY_TYPES)[number];
  cronExpression?: string;
}

export interface DigestMetadata {
  type: DigestType;
  amount?: number;
  unit?: TimeUnit;
  digestKey?: string;
  backoff?: boolean;
  backoffAmount?: number;
  backoffUnit?: TimeUnit;
  updateMode?: boolean;
  timed?: TimedDigestConfig;
}

export interface TemplateVariable {
  /** A payload path, dotted for nested fields (`user.lastName`). */
  name: string;
  type?: string;
  required?: boolean;
  defaultValue?: unknown;
}

export const ACTOR_TYPES = ['none', 'user', 'system_icon', 'system_custom'] as const;
export interface StepActor {
  type: (typeof ACTOR_TYPES)[number];
  data: string | null;
}

export interface DelayMetadata {
  type: DelayType;
  amount?: number;
  unit?: TimeUnit;
  /** timed: wait until the next time this cron expression names. */
  cron?: string;
  /** scheduled: a payload path (`sendAt`) to the ISO date to wait for. */
  delayPath?: string;
  /** dynamic (Novu's name): `payload.<path>` to an ISO date-time or an `{amount, unit}`, read when the step runs. */
  dynamicKey?: string;
}

/** A dynamic delay's key: `payload.` and a dotted path with no empty or blank segment. */
export const DYNAMIC_KEY_PATTERN = /^payload(\.[^.\s]+)+$/;

export const THROTTLE_UNITS = ['minutes', 'hours', 'days'] as const;

/**
 * At most `threshold` runs of the step per `throttleKey` in a window (`amount` × `unit`, or a
 * `dynamicKey` payload path holding `{amount, unit}` or an ISO date the window ends at); the rest
 * skip the steps after it. The key defaults to the subscriber and the workflow.
 */
export interface ThrottleMetadata {
  type: 'fixed' | 'dynamic';
  amount?: number;
  unit?: (typeof THROTTLE_UNITS)[number];
  dynamicKey?: string;
  threshold: number;
  throttleKey?: string;
}

export const HTTP_METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'] as const;
export type HttpMethod = (typeof HTTP_METHODS)[number];

export interface KeyValuePair {
  key: string;
  value: string;
}

/** Calls a URL with the rendered method, headers and body; later steps read the answer (`steps.<stepId>`). */
export interface HttpRequestMetadata {
  method: HttpMethod;
  url: string;
  headers: KeyValuePair[];
  /** A template, or pairs sent as a JSON object. */
  body?: string | KeyValuePair[];
  /** JSON Schema the answer's body must match when `enforceSchemaValidation`. */
  responseBodySchema?: Record<string, unknown>;
  enforceSchemaValidation?: boolean;
  /** A failed call lets the workflow go on (else it stops the steps after it). */
  continueOnFailure?: boolean;
}

export type StepMetadata = DigestMetadata | DelayMetadata | ThrottleMetadata | HttpRequestMetadata;

interface MetadataByStepType {
  digest: DigestMetadata;
  delay: DelayMetadata;
  throttle: ThrottleMetadata;
  http_request: HttpRequestMetadata;
}

/** A step's metadata as its type has it (buildSteps keeps only the fields of the step's own type). */
export function stepMetadata<T extends keyof MetadataByStepType>(step: Pick<StepVariant, 'metadata' | 'template'>, type: T): MetadataByStepType[T] | undefined {
  return step.template.type === type ? (step.metadata as MetadataByStepType[T] | undefined) : undefined;
}

export interface ReplyCallback {
  active: boolean;
  url?: string;
}

/** A step's alternative, picked by its own filters; it never has variants of its own. */
export interface StepVariant {
  id: string;
  uuid: string;
  name: string;
  /**
   * The step's identifier within its workflow (Novu v2 `stepId`, the slug of its name, unique): how
   * later steps name it (`steps.<stepId>`) and how the v2 API addresses it. Absent on steps stored
   * before v2; `stepIdentifiers` derives it then.
   */
  stepId?: string;
  /** The v2 controls as last written through the v2 API; cleared when a v1 write replaces the template. */
  controlValues?: Record<string, unknown>;
  /**
   * The step's conditions (v2 `skip`, as Novu's dashboard keeps them): JSON Logic over payload, subscriber
   * and earlier steps saying when the step runs; it is skipped when they do not hold.
   */
  skip?: Record<string, unknown>;
  active: boolean;
  shouldStopOnFail: boolean;
  template: StepTemplate;
  filters: StepCondition[];
  metadata?: StepMetadata;
  replyCallback?: ReplyCallback;
}

export interface WorkflowStep extends StepVariant {
  variants: StepVariant[];
  /** Set on the step as it runs when one of its variants was selected (never stored). */
  variant?: { id: string; name: string };
}

export interface WorkflowTrigger {
  identifier: string;
  /** Payload variables the templates use (`{{payload.x}}` or `{{x}}`). */
  variables: string[];
  /** Subscriber fields the templates use (`{{subscriber.x}}`). */
  subscriberVariables: string[];
}

/** Where a workflow was written: Novu v2's origins (v1 API: `novu-cloud-v1`, v2 API: `novu-cloud`). */
export const WORKFLOW_ORIGINS = ['novu-cloud', 'novu-cloud-v1', 'external'] as const;
export type WorkflowOrigin = (typeof WORKFLOW_ORIGINS)[number];

/**
 * A workflow written through Novu's v2 API (or code-first): its templates are Liquid and its steps
 * behave as Novu v2's (in-app `data`, sanitised output); one written through v1 keeps Handlebars.
 */
export function isV2Workflow(workflow: Pick<Workflow, 'origin'>): boolean {
  return workflow.origin !== undefined && workflow.origin !== 'novu-cloud-v1';
}

export const SEVERITY_LEVELS = ['high', 'medium', 'low', 'none'] as const;
export type SeverityLevel = (typeof SEVERITY_LEVELS)[number];

/** Novu v2's preferences: every channel (`all`) and each one, with whether subscribers may change them. */
export interface WorkflowPreferences {
  all: { enabled?: boolean; readOnly?: boolean };
  channels: Partial<Record<Channel, { enabled?: boolean }>>;
}

/** A workflow's v2 preferences: `user` as set through the API, `workflow` as a code-first workflow declares them. */
export interface WorkflowPreferenceLayers {
  user?: WorkflowPreferences | null;
  workflow?: WorkflowPreferences | null;
}

/** A workflow ("notification template" in v1, a workflow in v2): what a trigger names and runs. */
export interface Workflow {
  id: string;
  organizationId: string;
  environmentId: string;
  creatorId: string;
  name: string;
  description: string;
  active: boolean;
  /** Novu marks an inactive workflow as a draft. */
  draft: boolean;
  /** Critical workflows ignore subscriber opt-outs and quiet hours. */
  critical: boolean;
  /** The workflow's default channel preferences, the first layer of the merge. */
  preferenceSettings: ChannelFlags;
  tags: string[];
  steps: WorkflowStep[];
  trigger: WorkflowTrigger;
  notificationGroupId: string;
  data?: Record<string, unknown>;
  createdAt: Date;
  updatedAt: Date;
  /** Bumped by every update; updates compare-and-set on it. */
  revision: number;
  /** Absent on workflows stored before v2: `novu-cloud-v1`. A `novu-cloud` workflow's templates are Liquid. */
  origin?: WorkflowOrigin;
  /** JSON Schema of the trigger's payload; with `validatePayload`, a payload that fails it is refused. */
  payloadSchema?: Record<string, unknown>;
  validatePayload?: boolean;
  severity?: SeverityLevel;
  isTranslationEnabled?: boolean;
  /** The v2 preferences as last written through v2 (`preferenceSettings` and `critical` follow them). */
  preferences?: WorkflowPreferenceLayers;
  deletedAt?: Date;
  deletedBy?: string;
  /**
   * The last publish that concerned it (POST /v2/environments/{id}/publish, PUT /v2/workflows/{id}/sync):
   * on the source, when it was last copied out; on the copy, when it was last written by a publish.
   */
  lastPublishedAt?: Date;
  /** Who published it then: the API key's id. */
  lastPublishedBy?: string;
}

/** The fields a workflow may lack: stores leave them out when unset, and an update without one removes it. */
export const OPTIONAL_WORKFLOW_FIELDS = [
  'data',
  'lastPublishedAt',
  'lastPublishedBy',
  'origin',
  'payloadSchema',
  'validatePayload',
  'severity',
  'isTranslationEnabled',
  'preferences',
] as const satisfies readonly (keyof Workflow)[];

/** Channels the workflow's active steps deliver through, in step order. */
export function activeChannels(workflow: Pick<Workflow, 'steps'>): Channel[] {
  const channels: Channel[] = [];
  for (const step of workflow.steps) {
    if (step.active && isChannelStep(step.template.type) && !channels.includes(step.template.type)) channels.push(step.template.type);
  }
  return channels;
}

/** Novu's dashboard slug: `<name-slug>_wf_<id>`; accepted wherever a workflow id is. */
export function workflowSlug(workflow: Pick<Workflow, 'id' | 'name'>): string {
  return `${slugify(workflow.name) || 'workflow'}_wf_${workflow.id}`;
}

export function idFromWorkflowSlug(value: string): string | undefined {
  return /_wf_([0-9a-f]{24})$/.exec(value)?.[1];
}

/** What a caller may name a workflow by: its `_id`, its trigger identifier, or its slug (the id it ends with). */
export function workflowReference(value: string): string {
  return idFromWorkflowSlug(value) ?? value;
}

/** Lower-case ASCII words joined by dashes (Novu's `slugify(name, {lower, strict})`). */
export function slugify(value: string): string {
  return value
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9\s-]/g, '')
    .trim()
    .replace(/[\s-]+/g, '-')
    .replace(/^-+|-+$/g, '');
}

/** Trigger identifiers are the names callers send; keep them to URL- and log-safe characters. */
export const TRIGGER_IDENTIFIER_PATTERN = /^[a-zA-Z0-9_.:-]+$/;
export const TRIGGER_IDENTIFIER_MAX_LENGTH = 128;

/** The workflow as outbound webhook events carry it (`data.object` of workflow.* events), with Novu's wire names. */
export function workflowEventObject(workflow: Workflow): Record<string, unknown> {
  return {
    _id: workflow.id,
    _environmentId: workflow.environmentId,
    _organizationId: workflow.organizationId,
    name: workflow.name,
    description: workflow.description,
    workflowId: workflow.trigger.identifier,
    slug: workflowSlug(workflow),
    active: workflow.active,
    critical: workflow.critical,
    tags: workflow.tags,
    preferenceSettings: workflow.preferenceSettings,
    steps: workflow.steps.map((step) => ({ _id: step.id, name: step.name, type: step.template.type, active: step.active })),
    ...(workflow.data ? { data: workflow.data } : {}),
    createdAt: workflow.createdAt.toISOString(),
    updatedAt: workflow.updatedAt.toISOString(),
    ...(workflow.deletedAt ? { deletedAt: workflow.deletedAt.toISOString() } : {}),
  };
}

/**
 * The payload with the defaults of every step's `variables` filled in where the trigger left the
 * field out (Novu merges them into the trigger's payload); the payload itself is not changed.
 */
export function payloadWithDefaults(payload: Record<string, unknown>, workflow: Pick<Workflow, 'steps'>): Record<string, unknown> {
  const defaults = workflow.steps.flatMap((step) => (step.template.variables ?? []).filter((v) => v.defaultValue !== undefined));
  if (!defaults.length) return payload;
  const result = structuredClone(payload);
  for (const variable of defaults) setIfAbsent(result, variable.name.split('.'), variable.defaultValue);
  return result;
}

/** Sets the value at the path unless something is there; a path through a non-object leaves it alone. */
function setIfAbsent(root: Record<string, unknown>, path: string[], value: unknown): void {
  let node = root;
  for (const key of path.slice(0, -1)) {
    if (node[key] === undefined) node[key] = {};
    const next = node[key];
    if (!next || typeof next !== 'object' || Array.isArray(next)) return;
    node = next as Record<string, unknown>;
  }
  const last = path[path.length - 1];
  if (node[last] === undefined) node[last] = structuredClone(value);
}

/**
 * Each step's v2 identifier (`stepId`), by step id: its own, or the slug of its name, with `-2`, `-3`…
 * after a slug an earlier step took. Later steps name an earlier one by it (`steps.<stepId>`).
 */
export function stepIdentifiers(steps: readonly Pick<StepVariant, 'id' | 'name' | 'stepId'>[]): Map<string, string> {
  const taken = new Set(steps.flatMap((step) => (step.stepId ? [step.stepId] : [])));
  const identifiers = new Map<string, string>();
  for (const step of steps) {
    if (step.stepId) {
      identifiers.set(step.id, step.stepId);
      continue;
    }
    const base = slugify(step.name) || 'step';
    let candidate = base;
    for (let n = 2; taken.has(candidate); n++) candidate = `${base}-${n}`;
    taken.add(candidate);
    identifiers.set(step.id, candidate);
  }
  return identifiers;
}
