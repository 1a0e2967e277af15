import { Inject, Injectable, Optional } from '@nestjs/common';
import { CHANNELS, CLOCK, ChannelFlags, Clock, EnvironmentScope, OUTBOUND_EVENTS, OutboundEvents, noOutboundEvents } from '@app/kernel';
import { WORKFLOW_REPOSITORY, WorkflowRepository, idFromWorkflowSlug } from '@app/workflows';
import { SubscriberPreferencesView } from '../../domain/preferences';
import {
  CriticalWorkflowPreferencesError,
  PreferencesSubscriberNotFoundError,
  PreferencesWorkflowNotFoundError,
  WorkflowScheduleNotSupportedError,
} from '../../domain/preferences-errors';
import { Schedule } from '../../domain/preferences-schedule';
import { PREFERENCE_REPOSITORY, PreferenceRepository } from '../../ports/preference.repository.port';
import { SUBSCRIBER_REPOSITORY, SubscriberRepository } from '../../ports/subscriber.repository.port';
import { GetSubscriberPreferences } from '../get-subscriber-preferences/get-subscriber-preferences.use-case';

export interface UpdateSubscriberPreferencesCommand {
  scope: EnvironmentScope;
  /** The caller's own subscriberId. */
  subscriberId: string;
  /** Internal `_id`, trigger identifier or slug; absent: the global preferences. */
  workflowId?: string;
  channels?: Partial<ChannelFlags>;
  schedule?: Schedule;
  /** Novu's v1 switch of the workflow (or, without workflowId, of everything); channels are kept as they are. */
  enabled?: boolean;
}

@Injectable()
export class UpdateSubscriberPreferences {
  constructor(
    @Inject(SUBSCRIBER_REPOSITORY) private readonly subscribers: SubscriberRepository,
    @Inject(PREFERENCE_REPOSITORY) private readonly preferences: PreferenceRepository,
    @Inject(WORKFLOW_REPOSITORY) private readonly workflows: WorkflowRepository,
    @Inject(CLOCK) private readonly clock: Clock,
    private readonly getPreferences: GetSubscriberPreferences,
    @Optional() @Inject(OUTBOUND_EVENTS) private readonly events: OutboundEvents = noOutboundEvents,
  ) {}

  async execute(command: UpdateSubscriberPreferencesCommand): Promise<SubscriberPreferencesView> {
    const { scope } = command;
    const subscriber = await this.subscribers.findBySubscriberId(scope, command.subscriberId);
    if (!subscriber) throw new PreferencesSubscriberNotFoundError(command.subscriberId);
    const channels = Object.fromEntries(
      CHANNELS.filter((c) => typeof command.channels?.[c] === 'boolean').map((c) => [c, command.channels![c]]),
    ) as Partial<ChannelFlags>;
    const enabled = typeof command.enabled === 'boolean' ? { enabled: command.enabled } : undefined;
    const at = this.clock.now();
    const before = await this.getPreferences.execute({ scope, subscriberId: command.subscriberId });

    if (command.workflowId !== undefined) {
      const workflow = await this.findWorkflow(scope, command.workflowId);
      if (!workflow) throw new PreferencesWorkflowNotFoundError(command.workflowId);
      if (workflow.critical) throw new CriticalWorkflowPreferencesError(workflow.id);
      if (command.schedule) throw new WorkflowScheduleNotSupportedError();
      if (Object.keys(channels).length || enabled) {
        await this.preferences.upsert(scope, { subscriberId: subscriber.id, workflowId: workflow.id, channels, ...enabled, at });
      }
    } else if (Object.keys(channels).length || command.schedule || enabled) {
      await this.preferences.upsert(scope, { subscriberId: subscriber.id, workflowId: null, channels, schedule: command.schedule, ...enabled, at });
      // As Novu: a global choice clears the same channels' per-workflow choices, so it takes effect everywhere.
      const changed = Object.keys(channels) as (keyof ChannelFlags)[];
      if (changed.length) await this.preferences.removeWorkflowChannels(scope, subscriber.id, changed);
    }
    const after = await this.getPreferences.execute({ scope, subscriberId: command.subscriberId });
    await this.events.publish(scope, {
      type: 'preference.updated',
      object: {
        subscriberId: command.subscriberId,
        _subscriberId: subscriber.id,
        ...(command.workflowId !== undefined ? { workflowId: command.workflowId } : {}),
        preferences: toJson(after),
      },
      previousObject: { subscriberId: command.subscriberId, _subscriberId: subscriber.id, preferences: toJson(before) },
      occurredAt: at,
    });
    return after;
  }

  private async findWorkflow(scope: EnvironmentScope, reference: string) {
    const workflow = await this.workflows.findByIdOrIdentifier(scope, reference);
    if (workflow) return workflow;
    const slugId = idFromWorkflowSlug(reference);
    return slugId ? this.workflows.findById(scope, slugId) : null;
  }
}

/** A plain JSON copy (dates as ISO strings), as the event body carries it. */
function toJson(value: unknown): Record<string, unknown> {
  return JSON.parse(JSON.stringify(value)) as Record<string, unknown>;
}
