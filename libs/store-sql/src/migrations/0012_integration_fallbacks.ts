import type { Migration } from './migration';

// Identifiers of the integrations of the same channel tried, in order, when this one fails for good.
export const integrationFallbacksMigration: Migration = {
  version: 12,
  name: 'integration_fallbacks',
  sql: `ALTER TABLE integrations ADD COLUMN fallbacks jsonb NOT NULL DEFAULT '[]'::jsonb;`,
};
