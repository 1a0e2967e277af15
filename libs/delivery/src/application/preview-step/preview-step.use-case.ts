import { Inject, Injectable } from '@nestjs/common';
import { CONTEXT_REPOSITORY, ContextEntry, ContextRepository, ContextVariables, contextKey, contextVariables, parseContextPayload } from '@app/contexts';
import { ENVIRONMENT_VARIABLE_REPOSITORY, EnvironmentVariableRepository, SECRET_MASK, envVariables } from '@app/environments';
import { maskUrl } from '@app/integrations';
import {
  StepTemplate,
  StepType,
  StepVariant,
  Workflow,
  WorkflowStep,
  controlValuesOf,
  isSecretHeader,
  maskHeaderValue,
  payloadWithDefaults,
  schemaExample,
  stepDraftFromControls,
  stepIdentifiers,
  stepMetadata,
} from '@app/workflows';
import { TemplateRenderError } from '../../domain/errors';
import { TEMPLATE_RENDERER, TemplateRenderer } from '../../ports/template-renderer.port';
import { EmailLayouts } from '../run-step/channels/email-layouts';
import { renderInApp } from '../run-step/channels/in-app.sender';
import { digestOutput } from '../run-step/step-context';
import { StepTemplates } from '../run-step/step-templates';
import { StepTranslations } from '../run-step/step-translations';

/** What a preview renders with; each part left out is filled with sample values. */
export interface PreviewPayload {
  payload?: Record<string, unknown>;
  subscriber?: Record<string, unknown>;
  actor?: Record<string, unknown>;
  /** Earlier steps' results by stepId (a digest's `events` and `eventCount`, an HTTP request's answer). */
  steps?: Record<string, unknown>;
  /** Contexts by type, as a trigger names them: an id (its stored data) or `{id, data}`. */
  context?: Record<string, unknown>;
  /** Environment variables by key, beside the environment's own (a stored secret always shows masked). */
  env?: Record<string, unknown>;
}

export interface PreviewStepCommand {
  workflow: Workflow;
  step: WorkflowStep;
  /** Controls to render instead of the step's own. */
  controlValues?: Record<string, unknown>;
  previewPayload?: PreviewPayload;
}

/** Novu's error shape of a preview that could not render. */
export interface PreviewError {
  title: string;
  message: string;
  hint: string;
}

export interface StepPreview {
  /** What the step was rendered with: the given parts, and sample values for the rest. */
  previewPayloadExample: Required<Pick<PreviewPayload, 'payload' | 'subscriber' | 'steps'>> & Pick<PreviewPayload, 'actor' | 'context' | 'env'>;
  /** The workflow's payload schema the sample payload was built from. */
  schema: Record<string, unknown> | null;
  result: { type: StepType; preview?: Record<string, unknown>; error?: PreviewError };
}

/** The subscriber a preview renders with when it is given none (fields given replace these). */
export const SAMPLE_SUBSCRIBER: Record<string, unknown> = {
  subscriberId: 'sample-subscriber',
  firstName: 'Jane',
  lastName: 'Doe',
  email: 'jane.doe@example.com',
  phone: '+15555550100',
  avatar: 'https://example.com/avatar.png',
  locale: 'en_US',
  timezone: 'UTC',
  data: {},
};

/** Events a digest step hands on in a preview. */
const SAMPLE_DIGEST_EVENTS = 2;

/**
 * Renders one step as it would be sent, with the given controls (or its own) and a preview payload
 * (payload, subscriber, actor and earlier steps' results, the rest sample values: the payload from
 * the workflow's payload schema), through the same rendering as delivery (an email in its layout).
 * Nothing is sent or stored.
 * A template that cannot render answers Novu's `error` shape, not a failure; an HTTP request step's
 * secret headers are shown masked, never rendered.
 */
@Injectable()
export class PreviewStep {
  constructor(
    @Inject(TEMPLATE_RENDERER) private readonly renderer: TemplateRenderer,
    private readonly layouts: EmailLayouts,
    private readonly translations: StepTranslations,
    @Inject(ENVIRONMENT_VARIABLE_REPOSITORY) private readonly variables: EnvironmentVariableRepository,
    @Inject(CONTEXT_REPOSITORY) private readonly contexts: ContextRepository,
  ) {}

  async execute(command: PreviewStepCommand): Promise<StepPreview> {
    const { workflow, step } = command;
    const given = command.previewPayload ?? {};
    const payload = { ...(schemaExample(workflow.payloadSchema) ?? {}), ...given.payload };
    const subscriber = { ...SAMPLE_SUBSCRIBER, ...given.subscriber };
    const steps = { ...sampleSteps(workflow, step, payload), ...given.steps };
    const scope = { organizationId: workflow.organizationId, environmentId: workflow.environmentId };
    const [env, context] = await Promise.all([this.env(scope, given.env), this.context(scope, given.context)]);
    const previewPayloadExample = {
      payload,
      subscriber,
      steps,
      ...(given.actor ? { actor: given.actor } : {}),
      ...(Object.keys(context).length ? { context } : {}),
      ...(Object.keys(env).length ? { env } : {}),
    };
    const type = step.template.type;
    const shown = command.controlValues ? fromControls(step, command.controlValues) : step;
    const events = digestEvents(workflow, step, steps);
    const locale = typeof subscriber.locale === 'string' ? subscriber.locale : undefined;
    const t = await this.translations.forStep(scope, workflow, shown.template, locale);
    const templates = new StepTemplates(
      this.renderer,
      {
        payload: payloadWithDefaults(payload, workflow),
        subscriber,
        actor: given.actor,
        step: { digest: events.length > 0, events, total_count: events.length },
        steps,
        env,
        context,
        ...(t ? { t } : {}),
      },
      workflow,
      shown.template,
    );
    try {
      return { previewPayloadExample, schema: workflow.payloadSchema ?? null, result: { type, preview: await this.render(workflow, shown, templates) } };
    } catch (error) {
      if (!(error instanceof TemplateRenderError)) throw error;
      const hint = 'Check the template syntax and the variables it reads (payload, subscriber, steps).';
      return {
        previewPayloadExample,
        schema: workflow.payloadSchema ?? null,
        result: { type, error: { title: 'The step could not be rendered', message: error.message, hint } },
      };
    }
  }

  /** The environment's variables, and those given beside them; a secret's value never shows, whatever is given for it. */
  private async env(scope: { organizationId: string; environmentId: string }, given: Record<string, unknown> = {}): Promise<Record<string, unknown>> {
    const stored = await this.variables.valuesFor(scope.organizationId, scope.environmentId);
    const secrets = new Set(stored.filter((variable) => variable.isSecret).map((variable) => variable.key));
    return { ...envVariables(stored), ...Object.fromEntries(Object.entries(given).map(([key, value]) => [key, secrets.has(key) ? SECRET_MASK : value])) };
  }

  /** The contexts given: `{id, data}` as given, an id with its stored data (`{}` when there is none). */
  private async context(scope: { organizationId: string; environmentId: string }, given: unknown): Promise<ContextVariables> {
    const { entries } = parseContextPayload(given);
    const named = entries.filter((entry) => entry.data === undefined).map((entry) => contextKey(entry.type, entry.identifier));
    const stored = new Map((named.length ? await this.contexts.findByKeys(scope, named) : []).map((c) => [contextKey(c.type, c.identifier), c.data]));
    return contextVariables(
      entries.map((entry): Required<ContextEntry> => ({ ...entry, data: entry.data ?? stored.get(contextKey(entry.type, entry.identifier)) ?? {} })),
    );
  }

  private async render(
    workflow: Workflow,
    step: Pick<StepVariant, 'template' | 'metadata' | 'controlValues' | 'skip'>,
    templates: StepTemplates,
  ): Promise<Record<string, unknown>> {
    const { template } = step;
    switch (template.type) {
      case 'in_app':
        return inAppPreview(renderInApp(template, templates));
      case 'email': {
        const email = await templates.renderEmail(await this.layouts.source(workflow, template));
        return { subject: email.subject, body: email.html };
      }
      case 'sms':
      case 'chat':
        return { body: templates.render(textOf(template)) ?? '' };
      case 'push':
        return { subject: templates.render(template.title) ?? '', body: templates.render(textOf(template)) ?? '' };
      case 'http_request':
        return httpPreview(step, templates);
      default: {
        // Waiting and throttling steps render nothing: their settings are what they do.
        const { skip: _skip, ...controls } = controlValuesOf(step);
        return controls;
      }
    }
  }
}

/** The step as the given controls describe it (its ids kept). */
function fromControls(step: WorkflowStep, controlValues: Record<string, unknown>): Pick<StepVariant, 'template' | 'metadata' | 'controlValues' | 'skip'> {
  const draft = stepDraftFromControls({ name: step.name, type: step.template.type, controlValues });
  return { template: { ...draft.template, id: step.template.id }, metadata: draft.metadata as StepVariant['metadata'], controlValues };
}

function textOf(template: StepTemplate): string {
  return typeof template.content === 'string' ? template.content : (template.content ?? []).map((block) => block.content).join('\n');
}

/** Novu's in-app render output from what the message would hold. */
function inAppPreview(rendered: ReturnType<typeof renderInApp>): Record<string, unknown> {
  const buttons = rendered.cta?.action?.buttons ?? [];
  const action = (type: string) => {
    const button = buttons.find((candidate) => candidate.type === type);
    if (!button) return undefined;
    return { label: button.content, ...(button.url ? { redirect: { url: button.url, ...(button.target ? { target: button.target } : {}) } } : {}) };
  };
  const redirect = rendered.cta?.data?.url
    ? { url: rendered.cta.data.url, ...(rendered.cta.data.target ? { target: rendered.cta.data.target } : {}) }
    : undefined;
  return definedOnly({
    subject: rendered.subject,
    body: typeof rendered.content === 'string' ? rendered.content : '',
    avatar: rendered.avatar,
    primaryAction: action('primary'),
    secondaryAction: action('secondary'),
    data: rendered.data,
    redirect,
  });
}

/** The request an HTTP request step would send: URL and values rendered, secret headers masked as written (never rendered), URL credentials masked. */
function httpPreview(step: Pick<StepVariant, 'template' | 'metadata'>, templates: StepTemplates): Record<string, unknown> {
  const metadata = stepMetadata(step, 'http_request');
  if (!metadata) return {};
  const render = (source: string) => templates.render(source) ?? '';
  const headers = Object.fromEntries(
    (metadata.headers ?? []).map(({ key, value }) => [key, isSecretHeader(key) ? (value ? maskHeaderValue(value) : value) : render(value)]),
  );
  const body = Array.isArray(metadata.body)
    ? Object.fromEntries(metadata.body.map(({ key, value }) => [key, isSecretHeader(key) ? maskHeaderValue(value) : render(value)]))
    : metadata.body
      ? render(metadata.body)
      : undefined;
  return definedOnly({ method: metadata.method, url: maskUrl(render(metadata.url)), headers, body });
}

/**
 * Sample results of the steps before `step`: a digest's events (each with the sample payload) and
 * an HTTP request's answer (a sample of its response schema).
 */
function sampleSteps(workflow: Workflow, step: WorkflowStep, payload: Record<string, unknown>): Record<string, unknown> {
  const identifiers = stepIdentifiers(workflow.steps);
  const samples: Record<string, unknown> = {};
  for (const earlier of workflow.steps) {
    if (earlier.id === step.id) break;
    const id = identifiers.get(earlier.id)!;
    if (earlier.template.type === 'digest') samples[id] = digestOutput(Array.from({ length: SAMPLE_DIGEST_EVENTS }, () => payload));
    if (earlier.template.type === 'http_request') samples[id] = schemaExample(stepMetadata(earlier, 'http_request')?.responseBodySchema) ?? {};
  }
  return samples;
}

/** v1's `step.events`: the payloads of the last digest before the step, as the preview's steps give them. */
function digestEvents(workflow: Workflow, step: WorkflowStep, steps: Record<string, unknown>): Record<string, unknown>[] {
  const identifiers = stepIdentifiers(workflow.steps);
  let digest: string | undefined;
  for (const earlier of workflow.steps) {
    if (earlier.id === step.id) break;
    if (earlier.template.type === 'digest') digest = identifiers.get(earlier.id);
  }
  const events = digest ? (steps[digest] as { events?: unknown } | undefined)?.events : undefined;
  if (!Array.isArray(events)) return [];
  return events.map((event) => ((event as { payload?: unknown })?.payload ?? {}) as Record<string, unknown>);
}

function definedOnly(value: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(value).filter(([, field]) => field !== undefined));
}
