import { EnvironmentScope } from '@app/kernel';
import { ExecutionDetail } from '../domain/execution-detail';

/** A job's history; append-only. Re-appending a detail with the same id is harmless. */
export interface ExecutionDetailRepository {
  append(detail: ExecutionDetail): Promise<void>;
  appendMany(details: ExecutionDetail[]): Promise<void>;
  /** The details of these jobs, oldest first. */
  listByJobIds(scope: EnvironmentScope, jobIds: string[]): Promise<ExecutionDetail[]>;
}
export const EXECUTION_DETAIL_REPOSITORY = Symbol('ExecutionDetailRepository');
