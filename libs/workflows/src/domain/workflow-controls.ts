import { CHANNELS, ChannelFlags, allChannels } from '@app/kernel';
import { StepDraft, StepMetadataDraft } from './step-rules';
import {
  CtaButton,
  DelayMetadata,
  DigestMetadata,
  EmailBlock,
  HttpRequestMetadata,
  Redirect,
  StepTemplate,
  StepType,
  StepVariant,
  Workflow,
  WorkflowPreferenceLayers,
  WorkflowPreferences,
  stepMetadata,
} from './workflow';

/**
 * Novu v2 describes a step by `controlValues`; the engine runs the template and metadata Novu v1
 * describes. One workflow serves both APIs: a v2 write turns controls into the step's template and
 * metadata (and keeps the controls as given), a v1 write replaces the template (and drops the
 * controls), and a v2 read gives the controls as written, or as the template and metadata say.
 */
export type ControlValues = Record<string, unknown>;

/**
 * Novu's block editor document (Maily's TipTap JSON, an email step's body when `editorType` is
 * `block`): the parsed object when the string is JSON of an object of type `doc` with a `content` list.
 */
export function parseBlockDocument(source: string): Record<string, unknown> | undefined {
  try {
    const parsed: unknown = JSON.parse(source);
    const document = record(parsed);
    return document?.type === 'doc' && Array.isArray(document.content) ? document : undefined;
  } catch {
    return undefined;
  }
}

/** A step as the v2 API describes it. */
export interface ControlledStep {
  /** The step's database id, when it names a step the workflow has. */
  id?: string;
  stepId?: string;
  name: string;
  type: StepType;
  controlValues?: ControlValues;
}

const record = (value: unknown): Record<string, unknown> | undefined =>
  value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;
const text = (value: unknown): string | undefined => (typeof value === 'string' ? value : undefined);
const definedOnly = <T extends Record<string, unknown>>(value: T): T => Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as T;

function redirectOf(value: unknown): Redirect | undefined {
  const redirect = record(value);
  if (!redirect) return undefined;
  return definedOnly({ url: text(redirect.url), target: text(redirect.target) as Redirect['target'] });
}

function buttonOf(type: CtaButton['type'], value: unknown): CtaButton | undefined {
  const action = record(value);
  if (!action || (action.label === undefined && action.redirect === undefined)) return undefined;
  return definedOnly({ type, content: text(action.label) ?? '', redirect: redirectOf(action.redirect) });
}

/** The template (and metadata) a step's controls describe. */
function fromControls(type: StepType, controls: ControlValues): Pick<StepDraft, 'template' | 'metadata'> {
  switch (type) {
    case 'in_app': {
      const buttons = [buttonOf('primary', controls.primaryAction), buttonOf('secondary', controls.secondaryAction)].filter((b): b is CtaButton => !!b);
      const redirect = redirectOf(controls.redirect);
      return {
        template: definedOnly({
          type,
          content: text(controls.body) ?? '',
          subject: text(controls.subject),
          avatar: text(controls.avatar),
          data: record(controls.data),
          disableOutputSanitization: controls.disableOutputSanitization === true ? true : undefined,
          cta:
            redirect || buttons.length
              ? definedOnly({ type: 'redirect' as const, data: redirect, action: buttons.length ? { buttons } : undefined })
              : undefined,
        }),
      };
    }
    case 'email': {
      const from = controls.useProviderDefaults === true ? undefined : record(controls.from);
      const editorType = controls.editorType === 'html' ? 'html' : 'block';
      return {
        template: definedOnly({
          type,
          subject: text(controls.subject) ?? '',
          content: text(controls.body) ?? '',
          contentType: editorType === 'html' ? ('customHtml' as const) : ('editor' as const),
          editorType,
          preheader: text(controls.preheader),
          senderName: text(from?.name),
          senderEmail: text(from?.email),
          replyTo: text(controls.replyTo),
          layoutId: controls.layoutId === null ? null : text(controls.layoutId),
          disableOutputSanitization: controls.disableOutputSanitization === true ? true : undefined,
        }),
      };
    }
    case 'sms':
    case 'chat':
      return { template: { type, content: text(controls.body) ?? '' } };
    case 'push':
      return { template: definedOnly({ type, title: text(controls.subject), content: text(controls.body) ?? '' }) };
    case 'delay':
      return { template: { type }, metadata: delayFromControls(controls) };
    case 'digest':
      return { template: { type }, metadata: digestFromControls(controls) };
    case 'throttle':
      return {
        template: { type },
        metadata: definedOnly({
          type: text(controls.type) ?? 'fixed',
          amount: controls.amount as number | undefined,
          unit: controls.unit as StepMetadataDraft['unit'],
          dynamicKey: text(controls.dynamicKey),
          threshold: controls.threshold as number | undefined,
          throttleKey: text(controls.throttleKey),
        }),
      };
    case 'http_request':
      return {
        template: { type },
        metadata: definedOnly({
          method: controls.method as HttpRequestMetadata['method'],
          url: controls.url as string,
          headers: (controls.headers as HttpRequestMetadata['headers'] | undefined) ?? [],
          body: controls.body as HttpRequestMetadata['body'],
          responseBodySchema: record(controls.responseBodySchema),
          enforceSchemaValidation: controls.enforceSchemaValidation as boolean | undefined,
          continueOnFailure: controls.continueOnFailure as boolean | undefined,
        }),
      };
  }
}

function delayFromControls(controls: ControlValues): StepMetadataDraft {
  const type = text(controls.type) ?? 'regular';
  if (type === 'timed') return { type, cron: text(controls.cron) };
  if (type === 'dynamic') return { type, dynamicKey: text(controls.dynamicKey) };
  return definedOnly({ type, amount: controls.amount as number | undefined, unit: controls.unit as StepMetadataDraft['unit'] });
}

function digestFromControls(controls: ControlValues): StepMetadataDraft {
  const digestKey = text(controls.digestKey);
  if (controls.type === 'timed') return definedOnly({ type: 'timed', digestKey, timed: { cronExpression: text(controls.cron) } });
  const lookBack = record(controls.lookBackWindow);
  return definedOnly({
    type: lookBack ? 'backoff' : 'regular',
    amount: controls.amount as number | undefined,
    unit: controls.unit as StepMetadataDraft['unit'],
    digestKey,
    ...(lookBack ? { backoff: true, backoffAmount: lookBack.amount as number | undefined, backoffUnit: lookBack.unit as StepMetadataDraft['unit'] } : {}),
  });
}

/** A v2 step as the draft the workflow rules build steps from; its controls are kept as given. */
export function stepDraftFromControls(step: ControlledStep): StepDraft {
  const controls = step.controlValues ?? {};
  const { skip, ...content } = controls;
  return {
    ...(step.id ? { id: step.id } : {}),
    name: step.name,
    ...(step.stepId ? { stepId: step.stepId } : {}),
    controlValues: controls,
    ...(record(skip) && Object.keys(record(skip)!).length ? { skip: record(skip) } : {}),
    ...fromControls(step.type, content),
  };
}

/** The controls of a step: as last written through v2, or as its template and metadata say. */
export function controlValuesOf(step: Pick<StepVariant, 'template' | 'metadata' | 'controlValues' | 'skip'>): ControlValues {
  if (step.controlValues) return step.controlValues;
  return definedOnly({ ...controlsFromTemplate(step), skip: step.skip });
}

function bodyText(content: StepTemplate['content']): string {
  if (Array.isArray(content)) return content.map((block: EmailBlock) => block.content).join('\n');
  return content ?? '';
}

function actionOf(button: CtaButton | undefined): Record<string, unknown> | undefined {
  return button ? definedOnly({ label: button.content, redirect: button.redirect }) : undefined;
}

function controlsFromTemplate(step: Pick<StepVariant, 'template' | 'metadata'>): ControlValues {
  const { template } = step;
  switch (template.type) {
    case 'in_app': {
      const buttons = template.cta?.action?.buttons ?? [];
      return definedOnly({
        body: bodyText(template.content),
        subject: template.subject ?? template.title,
        avatar: template.avatar,
        primaryAction: actionOf(buttons.find((b) => b.type === 'primary')),
        secondaryAction: actionOf(buttons.find((b) => b.type === 'secondary')),
        redirect: template.cta?.data?.url ? template.cta.data : undefined,
        data: template.data,
        disableOutputSanitization: template.disableOutputSanitization ?? false,
      });
    }
    case 'email':
      return definedOnly({
        subject: template.subject ?? '',
        body: bodyText(template.content),
        editorType: template.editorType ?? (template.contentType === 'customHtml' || typeof template.content === 'string' ? 'html' : 'block'),
        preheader: template.preheader,
        from: template.senderName || template.senderEmail ? definedOnly({ name: template.senderName, email: template.senderEmail }) : undefined,
        replyTo: template.replyTo,
        layoutId: template.layoutId,
        disableOutputSanitization: template.disableOutputSanitization ?? false,
      });
    case 'sms':
    case 'chat':
      return { body: bodyText(template.content) };
    case 'push':
      return definedOnly({ subject: template.title, body: bodyText(template.content) });
    case 'delay':
      return delayControls(stepMetadata(step, 'delay'));
    case 'digest':
      return digestControls(stepMetadata(step, 'digest'));
    case 'throttle':
      return { ...(stepMetadata(step, 'throttle') ?? {}) };
    case 'http_request':
      return { ...(stepMetadata(step, 'http_request') ?? {}) };
  }
}

// v2's delay types are regular and timed; a v1 scheduled or dynamic delay shows its own fields.
function delayControls(metadata: DelayMetadata | undefined): ControlValues {
  if (!metadata) return {};
  if (metadata.type === 'regular') return definedOnly({ type: 'regular', amount: metadata.amount, unit: metadata.unit });
  if (metadata.type === 'timed') return definedOnly({ type: 'timed', cron: metadata.cron });
  return definedOnly({ delayPath: metadata.delayPath, dynamicKey: metadata.dynamicKey });
}

function digestControls(metadata: DigestMetadata | undefined): ControlValues {
  if (!metadata) return {};
  if (metadata.type === 'timed') {
    const { cronExpression, ...rest } = metadata.timed ?? {};
    return definedOnly({ type: 'timed', cron: cronExpression, digestKey: metadata.digestKey, ...(cronExpression ? {} : rest) });
  }
  const lookBack = metadata.backoff || metadata.type === 'backoff';
  return definedOnly({
    type: 'regular',
    amount: metadata.amount,
    unit: metadata.unit,
    digestKey: metadata.digestKey,
    lookBackWindow: lookBack && metadata.backoffAmount !== undefined ? { amount: metadata.backoffAmount, unit: metadata.backoffUnit } : undefined,
  });
}

/** Novu's preferences when nothing is set: every channel on, none read-only. */
export const DEFAULT_WORKFLOW_PREFERENCES: WorkflowPreferences = {
  all: { enabled: true, readOnly: false },
  channels: Object.fromEntries(CHANNELS.map((channel) => [channel, { enabled: true }])),
};

/** The preferences a workflow's v1 fields describe (its channel switches, `critical` as read-only). */
export function preferencesOfSettings(workflow: Pick<Workflow, 'preferenceSettings' | 'critical'>): WorkflowPreferences {
  return {
    all: { enabled: true, readOnly: workflow.critical },
    channels: Object.fromEntries(CHANNELS.map((channel) => [channel, { enabled: workflow.preferenceSettings[channel] !== false }])),
  };
}

/** The layer that applies: the API's (`user`), else the workflow's own, else Novu's default. */
export function effectivePreferences(layers: WorkflowPreferenceLayers | undefined): WorkflowPreferences {
  return layers?.user ?? layers?.workflow ?? DEFAULT_WORKFLOW_PREFERENCES;
}

/** The engine's view of v2 preferences: channel switches (a channel not listed follows `all.enabled`), and `all.readOnly` as critical. */
export function settingsOfPreferences(preferences: WorkflowPreferences): { preferenceSettings: ChannelFlags; critical: boolean } {
  const all = preferences.all.enabled !== false;
  const flags = allChannels(all);
  for (const channel of CHANNELS) {
    const enabled = preferences.channels[channel]?.enabled;
    if (enabled !== undefined) flags[channel] = enabled;
  }
  return { preferenceSettings: flags, critical: preferences.all.readOnly === true };
}

/** Novu v2's status of a workflow. */
export function workflowStatus(workflow: Pick<Workflow, 'active'>): 'ACTIVE' | 'INACTIVE' {
  return workflow.active ? 'ACTIVE' : 'INACTIVE';
}
