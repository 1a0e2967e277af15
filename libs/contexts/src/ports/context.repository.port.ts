import { CursorPage, CursorRequest, EnvironmentScope } from '@app/kernel';
import { Context, ContextEntry } from '../domain/context';

export interface ContextSearch extends CursorRequest {
  /** Sort field; the internal id breaks ties. */
  orderBy: 'createdAt' | 'updatedAt' | '_id';
  /** Exactly this context id (of any type). */
  identifier?: string;
  /** Case-insensitive substring of the context's key (`type:id`). */
  search?: string;
}

/**
 * Contexts of one environment, one per (type, identifier). Every method is one atomic operation on
 * the store (insert-if-absent, conditional update, upsert), so the contract holds on every store.
 */
export interface ContextRepository {
  /** Inserts unless the environment has a context of that type and identifier; false then. */
  insert(context: Context): Promise<boolean>;
  find(scope: EnvironmentScope, type: string, identifier: string): Promise<Context | null>;
  /** The contexts of these `type:id` keys that exist (in no particular order). */
  findByKeys(scope: EnvironmentScope, keys: string[]): Promise<Context[]>;
  search(scope: EnvironmentScope, search: ContextSearch): Promise<CursorPage<Context>>;
  /** Replaces the data and moves updatedAt; null when there is no such context. */
  updateData(scope: EnvironmentScope, type: string, identifier: string, data: Record<string, unknown>, updatedAt: Date): Promise<Context | null>;
  /** False when there was no such context. */
  delete(scope: EnvironmentScope, type: string, identifier: string): Promise<boolean>;
  /**
   * A trigger's contexts: each one missing is created (its data, or `{}`), each existing one given
   * data gets it (updatedAt moves only when it changes), each without data is left as it is. One
   * atomic write per context, so concurrent triggers agree. `newId` names a context it creates.
   */
  upsert(scope: EnvironmentScope, entries: ContextEntry[], at: { newId: () => string; now: Date }): Promise<Context[]>;
}
export const CONTEXT_REPOSITORY = Symbol('ContextRepository');
