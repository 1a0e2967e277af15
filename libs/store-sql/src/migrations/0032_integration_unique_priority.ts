import type { Migration } from './migration';

/**
 * No two active integrations of a channel of an environment on one priority above 0. Rankings
 * written concurrently could leave two (the bug this closes), so the active email and sms
 * integrations are first ranked again as the ranking rule ranks them (the primary on top, then by
 * priority, then newest first; n…1, one primary). An exclusion constraint rather than a unique index,
 * so that it can be checked at the end of each statement: a ranking swaps priorities in one UPDATE.
 */
export const integrationUniquePriorityMigration: Migration = {
  version: 32,
  name: 'integration_unique_priority',
  sql: `
WITH ordered AS (
  SELECT id, is_primary,
         row_number() OVER (PARTITION BY environment_id, channel ORDER BY is_primary DESC, priority DESC, created_at DESC, id COLLATE "C" DESC) AS place,
         count(*) OVER (PARTITION BY environment_id, channel) AS active_count
  FROM integrations WHERE active AND NOT deleted AND channel IN ('email', 'sms')
)
UPDATE integrations i SET priority = o.active_count - o.place + 1, is_primary = o.is_primary AND o.place = 1
FROM ordered o
WHERE i.id = o.id AND (i.priority <> o.active_count - o.place + 1 OR i.is_primary <> (o.is_primary AND o.place = 1));
ALTER TABLE integrations ADD CONSTRAINT integrations_one_priority_per_channel
  EXCLUDE USING btree (environment_id WITH =, channel WITH =, priority WITH =) WHERE (active AND NOT deleted AND priority > 0)
  DEFERRABLE INITIALLY IMMEDIATE;
`,
};
