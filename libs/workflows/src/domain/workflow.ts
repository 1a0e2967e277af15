import { Channel, ChannelFlags, StepCondition, isChannel } from '@app/kernel';

/** Step types a v1 workflow may hold: the five channels plus the two waiting steps. */
export const STEP_TYPES = ['in_app', 'email', 'sms', 'chat', 'push', 'digest', 'delay'] as const;
export type StepType = (typeof STEP_TYPES)[number];

export function isChannelStep(type: StepType): type is Channel {
  return isChannel(type);
}

export const TIME_UNITS = ['seconds', 'minutes', 'hours', 'days', 'weeks', 'months'] as const;
export type TimeUnit = (typeof TIME_UNITS)[number];

export const DIGEST_TYPES = ['regular', 'backoff', 'timed'] as const;
export type DigestType = (typeof DIGEST_TYPES)[number];

export const DELAY_TYPES = ['regular', 'scheduled', 'dynamic'] as const;
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

export interface CtaButton {
  type: 'primary' | 'secondary';
  content: string;
  resultContent?: string;
}

export interface MessageCta {
  type: 'redirect';
  data?: { url?: string };
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
  /** scheduled: a payload path (`sendAt`) to the ISO date to wait for. */
  delayPath?: string;
  /** dynamic (Novu's name): `payload.<path>` to an ISO date-time or an `{amount, unit}`, read when the step runs. */
  dynamicKey?: string;
}

/** A dynamic delay's key: `payload.` and a dotted path with no empty or blank segment. */
export const DYNAMIC_KEY_PATTERN = /^payload(\.[^.\s]+)+$/;

export type StepMetadata = DigestMetadata | DelayMetadata;

export interface ReplyCallback {
  active: boolean;
  url?: string;
}

/** A step's alternative, picked by its own filters; it never has variants of its own. */
export interface StepVariant {
  id: string;
  uuid: string;
  name: string;
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

/** A v1 workflow ("notification template"): what a trigger names and runs. */
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
  deletedAt?: Date;
  deletedBy?: string;
}

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
