import { EnvironmentScope, Page } from '@app/kernel';
import { Layout, LayoutControlValues } from '../domain/layout';

export interface LayoutSearch {
  offset: number;
  limit: number;
  /** Case-insensitive substring of the name or the layoutId. */
  query?: string;
  /** Default: createdAt. Ties are ordered by id, the same way. */
  orderBy?: 'createdAt' | 'updatedAt' | 'name';
  /** Default: desc (newest first). */
  orderDirection?: 'asc' | 'desc';
}

/** What an update changes: fields left out stay; `controlValues: null` clears the stored controls. */
export interface LayoutChanges {
  name?: string;
  isTranslationEnabled?: boolean;
  controlValues?: LayoutControlValues | null;
}

/**
 * Email layouts of one environment, one per layoutId. Every method is one atomic operation on the
 * store, so the contract holds on PostgreSQL, PGlite and MongoDB. The environment's default is the
 * layout with the latest `defaultSince` (ties: the greater id), so making one the default is a write
 * of that one record; the write also clears the others' marks where the store allows it in the same
 * statement.
 */
export interface LayoutRepository {
  /** Inserts unless the environment has a layout with the same layoutId; false then. */
  insert(layout: Layout): Promise<boolean>;
  /** Changes the given fields and sets `updatedAt`; the layout after the change, or null when there is none. */
  update(scope: EnvironmentScope, id: string, changes: LayoutChanges, updatedAt: Date): Promise<Layout | null>;
  /** Its `_id` or its layoutId (the id wins when both match). */
  findByReference(scope: EnvironmentScope, idOrLayoutId: string): Promise<Layout | null>;
  /** The environment's default layout, if it has one. */
  findDefault(scope: EnvironmentScope): Promise<Layout | null>;
  /**
   * The delivery pipeline's lookup: the layout with this layoutId, or (undefined) the environment's
   * default. A cache may stand in front of this one read (CachedLayoutRepository).
   */
  findForEmail(scope: EnvironmentScope, layoutId: string | undefined): Promise<Layout | null>;
  /** Newest first unless `orderBy`/`orderDirection` say otherwise. */
  search(scope: EnvironmentScope, search: LayoutSearch): Promise<Page<Layout>>;
  /** Makes the layout the environment's default as of `at` (null: the environment has none); false when there is no such layout. */
  markDefault(scope: EnvironmentScope, id: string | null, at: Date): Promise<boolean>;
  /** False when there was no such layout. */
  delete(scope: EnvironmentScope, id: string): Promise<boolean>;
}
export const LAYOUT_REPOSITORY = Symbol('LayoutRepository');
