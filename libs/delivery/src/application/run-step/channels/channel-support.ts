import { Inject, Injectable } from '@nestjs/common';
import { INTEGRATION_REPOSITORY, Integration, IntegrationRepository } from '@app/integrations';
import { Channel } from '@app/kernel';
import { DETAIL } from '../../../domain/execution-detail';
import { SelectionContext } from '../../../domain/select-integration';
import { TEMPLATE_RENDERER, TemplateRenderer } from '../../../ports/template-renderer.port';
import { StepContext, subscriberVariables } from '../step-context';
import { StepTemplates } from '../step-templates';
import { StepOutcome } from '../step-outcome';
import { StepRecorder } from './step-recorder';

/** What every channel sender needs: the channel's active integrations, rendering, the common outcomes (none writes outside the chain). */
@Injectable()
export class ChannelSupport {
  constructor(
    @Inject(INTEGRATION_REPOSITORY) private readonly integrations: IntegrationRepository,
    @Inject(TEMPLATE_RENDERER) readonly renderer: TemplateRenderer,
    readonly recorder: StepRecorder,
  ) {}

  /** Active integrations of the channel, newest first. */
  activeIntegrations(context: StepContext, channel: Channel): Promise<Integration[]> {
    return this.integrations.findActive(context.scope, { channel });
  }

  /** What integration conditions are evaluated against. */
  selection(context: StepContext): SelectionContext {
    return { tenant: context.job.tenant, subscriber: subscriberVariables(context.subscriber), payload: context.job.payload };
  }

  /** The step's templates, rendered with its variables and its workflow's engine. */
  templates(context: StepContext): StepTemplates {
    return StepTemplates.of(this.renderer, context);
  }

  /** Renders one template string of the step (undefined stays undefined). */
  render(context: StepContext, source: string | undefined): string | undefined {
    return source ? this.templates(context).render(source) : undefined;
  }

  async noIntegration(context: StepContext): Promise<StepOutcome> {
    this.recorder.detail(context, 'Failed', DETAIL.SUBSCRIBER_NO_ACTIVE_INTEGRATION, { source: 'Credentials' });
    return { kind: 'failed', reason: DETAIL.SUBSCRIBER_NO_ACTIVE_INTEGRATION };
  }

  async noChannel(context: StepContext, detail: string): Promise<StepOutcome> {
    this.recorder.detail(context, 'Warning', detail, { source: 'Credentials' });
    return { kind: 'skipped' };
  }
}

/** An override value as a string, when it is one. */
export function stringOf(value: unknown): string | undefined {
  return typeof value === 'string' && value !== '' ? value : undefined;
}

/** An override value as a list of strings (one string, or an array of them). */
export function stringsOf(value: unknown): string[] {
  if (typeof value === 'string' && value !== '') return [value];
  return Array.isArray(value) ? value.filter((item): item is string => typeof item === 'string' && item !== '') : [];
}

export function objectOf(value: unknown): Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : {};
}
