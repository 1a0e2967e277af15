import { EnvironmentScope, Page } from '@app/kernel';
import { Workflow } from '../domain/workflow';

export interface WorkflowSearch {
  page: number;
  limit: number;
  /** Workflows to skip; default `page × limit`. */
  offset?: number;
  /** Case-insensitive substring of the name or the trigger identifier. */
  query?: string;
  /** Workflows holding at least one of these tags. */
  tags?: string[];
  /** Active (true) or inactive (false) workflows only. */
  active?: boolean;
  /** Default: createdAt. Ties are ordered by id, the same way. */
  orderBy?: 'createdAt' | 'updatedAt' | 'name';
  /** Default: desc (newest first). */
  orderDirection?: 'asc' | 'desc';
}

export type WorkflowUpdateResult = 'updated' | 'not_found' | 'stale' | 'identifier_taken';

/**
 * Workflows of one environment. Deleted workflows are kept (messages and notifications still
 * point at them) but every lookup except `findByIdIncludingDeleted` ignores them. Every method
 * is one atomic operation, so the contract holds on PostgreSQL, PGlite and MongoDB.
 */
export interface WorkflowRepository {
  /** Inserts unless a live workflow of the environment has the same trigger identifier; false then. */
  insert(workflow: Workflow): Promise<boolean>;
  /**
   * Replaces a live workflow if its stored revision is still `expectedRevision` (compare-and-set);
   * the caller passes the workflow with its next revision.
   */
  update(workflow: Workflow, expectedRevision: number): Promise<WorkflowUpdateResult>;
  findById(scope: EnvironmentScope, id: string): Promise<Workflow | null>;
  /** Old messages and jobs may point at a workflow since deleted. */
  findByIdIncludingDeleted(scope: EnvironmentScope, id: string): Promise<Workflow | null>;
  /** The trigger hot path: one indexed lookup. */
  findByTriggerIdentifier(scope: EnvironmentScope, identifier: string): Promise<Workflow | null>;
  /** An internal `_id` or a trigger identifier (the id wins when both match). */
  findByIdOrIdentifier(scope: EnvironmentScope, idOrIdentifier: string): Promise<Workflow | null>;
  /** Newest first unless `orderBy`/`orderDirection` say otherwise. */
  search(scope: EnvironmentScope, search: WorkflowSearch): Promise<Page<Workflow>>;
  /** Every live, active workflow, oldest first; `critical` narrows to (non-)critical ones. */
  listActive(scope: EnvironmentScope, filter?: { critical?: boolean }): Promise<Workflow[]>;
  /** Marks a live workflow deleted (its trigger identifier becomes free); false if there was none. */
  softDelete(scope: EnvironmentScope, id: string, deletedBy: string, deletedAt: Date): Promise<boolean>;
}
export const WORKFLOW_REPOSITORY = Symbol('WorkflowRepository');
