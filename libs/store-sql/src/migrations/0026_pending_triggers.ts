import type { Migration } from './migration';

/**
 * Accepted triggers the fan-out has not taken yet are listed in triggers_pending, keyed as the
 * reconciler reads them (oldest first), instead of in a partial index on triggers.status. A trigger's
 * one status change (accepted → processed) then changes no indexed column, so PostgreSQL writes it as
 * a heap-only update: no new entry in any of the table's indexes; the listing's row is deleted in the
 * same statement. A heap-only version must fit on its row's page, and one statement changes every row
 * of a page at once (before any old version can be pruned), so pages are filled to half: at 70%, 846 of
 * 2,000 changes were heap-only, at 50% all of them. The price: new pages of triggers are half empty.
 */
export const pendingTriggersMigration: Migration = {
  version: 26,
  name: 'pending_triggers',
  sql: `
CREATE TABLE triggers_pending (
  created_at timestamptz NOT NULL,
  id text NOT NULL,
  PRIMARY KEY (created_at, id)
);
INSERT INTO triggers_pending (created_at, id) SELECT created_at, id FROM triggers WHERE status = 'accepted';
DROP INDEX IF EXISTS triggers_accepted;
ALTER TABLE triggers SET (fillfactor = 50);
`,
};
