import { EnvironmentScope } from '@app/kernel';
import { ExecutionDetail } from '../domain/execution-detail';

/** A job's history; append-only. Re-appending a detail with the same id is harmless. */
export interface ExecutionDetailRepository {
  append(detail: ExecutionDetail): Promise<void>;
  appendMany(details: ExecutionDetail[]): Promise<void>;
  /** The details of these jobs, oldest first. */
  listByJobIds(scope: EnvironmentScope, jobIds: string[]): Promise<ExecutionDetail[]>;
  /**
   * Retention (any environment): deletes up to `limit` details created before `before`, oldest
   * first, in one statement; returns how many.
   * Never one that belongs to a notification with an unfinished job (pending, queued, delayed,
   * running): that condition only ever turns false to true (a finished job never changes, and a
   * notification gets no job after it is written), so an adapter may select then delete.
   */
  deleteOlderThan(before: Date, limit: number): Promise<number>;
}
export const EXECUTION_DETAIL_REPOSITORY = Symbol('ExecutionDetailRepository');
