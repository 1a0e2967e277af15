import type { Migration } from './migration';

// Novu's in-app message `actor` ({type, data}): the step's avatar option, or the trigger's actor.
export const messageActorMigration: Migration = {
  version: 19,
  name: 'message_actor',
  sql: `ALTER TABLE messages ADD COLUMN actor jsonb;`,
};
