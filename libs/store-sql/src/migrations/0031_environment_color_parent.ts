import type { Migration } from './migration';

/** Novu's environment fields an API client sets: the colour and the environment it is published from. */
export const environmentColorParentMigration: Migration = {
  version: 31,
  name: 'environment_color_parent',
  sql: `ALTER TABLE environments ADD COLUMN color text, ADD COLUMN parent_id text;`,
};
