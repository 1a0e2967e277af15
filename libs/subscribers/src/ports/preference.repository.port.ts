import { Channel, ChannelFlags, EnvironmentScope } from '@app/kernel';
import { SubscriberPreference } from '../domain/preferences';
import { Schedule } from '../domain/preferences-schedule';

export interface PreferenceChange {
  /** Internal subscriber id. */
  subscriberId: string;
  /** Null: the global record. */
  workflowId: string | null;
  /** Merged into the stored channels, key by key. */
  channels: Partial<ChannelFlags>;
  /** Replaces the stored schedule when given; left as it is when absent. */
  schedule?: Schedule;
  /** Novu's v1 on/off switch of the record as a whole; left as it is when absent. */
  enabled?: boolean;
  at: Date;
}

/**
 * Subscribers' preference records, one per (environment, subscriber, workflow or global).
 * Each method is one atomic operation (upsert with merge, conditional update), so the same
 * contract holds on PostgreSQL, PGlite and MongoDB.
 */
export interface PreferenceRepository {
  /** Creates the record or merges into it, in one write; returns the record as stored. */
  upsert(scope: EnvironmentScope, change: PreferenceChange): Promise<SubscriberPreference>;
  /** The global record and every workflow record of a subscriber. */
  listForSubscriber(scope: EnvironmentScope, subscriberId: string): Promise<SubscriberPreference[]>;
  /** What delivery needs for one step: the global record and the one for that workflow, in one read. */
  findForWorkflow(
    scope: EnvironmentScope,
    subscriberId: string,
    workflowId: string,
  ): Promise<{ global: SubscriberPreference | null; workflow: SubscriberPreference | null }>;
  /** Drops these channels from all of the subscriber's workflow records (a global change then wins). */
  removeWorkflowChannels(scope: EnvironmentScope, subscriberId: string, channels: Channel[]): Promise<void>;
  /** Forgets everything a (deleted) subscriber chose. */
  deleteForSubscriber(scope: EnvironmentScope, subscriberId: string): Promise<void>;
}
export const PREFERENCE_REPOSITORY = Symbol('PreferenceRepository');
