import { EnvironmentScope } from '@app/kernel';
import { TriggerRecord, TriggerStatus } from '../domain/trigger';

/** Durable acceptance of triggers: persisted before the 201, so nothing accepted is lost. */
export interface TriggerRepository {
  /** Inserts unless the environment already has this transactionId; false = a duplicate transactionId. */
  insertIfAbsent(record: TriggerRecord): Promise<boolean>;
  /** For the worker: the trigger a fan-out job names. */
  findById(id: string): Promise<TriggerRecord | null>;
  findByTransactionId(scope: EnvironmentScope, transactionId: string): Promise<TriggerRecord | null>;
  /** Compare-and-set: moves the trigger to `to` only while its status is one of `from`; false otherwise. */
  markStatus(id: string, from: TriggerStatus[], to: TriggerStatus, at?: Date): Promise<boolean>;
  /** Reconciler: triggers still `accepted` (never enqueued) created before `olderThan`, oldest first. */
  findStaleAccepted(olderThan: Date, limit: number): Promise<TriggerRecord[]>;
  /**
   * Marks the trigger canceled unless it already is; false when there is no such trigger or it was
   * already canceled. A `processed` trigger is marked too: its pending jobs are canceled separately.
   */
  cancel(scope: EnvironmentScope, transactionId: string, at?: Date): Promise<boolean>;
  /**
   * Retention (any environment): deletes up to `limit` triggers created before `before` whose
   * fan-out is over (`processed`, `canceled`, `failed`), oldest first, in one statement; returns
   * how many. An `accepted` or `enqueued` trigger stays for the reconciler. Its transactionId is
   * free again once it is deleted.
   */
  deleteOlderThan(before: Date, limit: number): Promise<number>;
}
export const TRIGGER_REPOSITORY = Symbol('TriggerRepository');
