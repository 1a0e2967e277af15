import type { Migration } from './migration';

// Subscriber search matches substrings (email, phone, name: ILIKE '%…%'), which no b-tree serves:
// trigram indexes do, and keep a search among a million subscribers to a few milliseconds.
// pg_trgm ships with PostgreSQL (contrib) and is a trusted extension, but a server may lack it or
// refuse it: the search still answers the same then, only by scanning, so the indexes are skipped
// with a notice rather than failing the start. The extension goes where the server allows it
// (public first), and the indexes name its schema, so stores in other schemas of the database share it.
export const subscriberSearchMigration: Migration = {
  version: 20,
  name: 'subscriber_search',
  sql: `
DO $$
DECLARE
  ops text;
BEGIN
  IF NOT EXISTS (SELECT 1 FROM pg_extension WHERE extname = 'pg_trgm') THEN
    BEGIN
      CREATE EXTENSION pg_trgm WITH SCHEMA public;
    EXCEPTION WHEN OTHERS THEN
      BEGIN
        CREATE EXTENSION pg_trgm;
      EXCEPTION WHEN OTHERS THEN
        RAISE NOTICE 'pg_trgm is not available (%): subscriber searches will scan', SQLERRM;
        RETURN;
      END;
    END;
  END IF;
  SELECT quote_ident(n.nspname) || '.gin_trgm_ops' INTO ops
    FROM pg_extension e JOIN pg_namespace n ON n.oid = e.extnamespace WHERE e.extname = 'pg_trgm';
  EXECUTE format('CREATE INDEX subscribers_email_search ON subscribers USING gin (email %s)', ops);
  EXECUTE format('CREATE INDEX subscribers_phone_search ON subscribers USING gin (phone %s)', ops);
  EXECUTE format($f$CREATE INDEX subscribers_name_search ON subscribers USING gin ((btrim(coalesce(first_name, '') || ' ' || coalesce(last_name, ''))) %s)$f$, ops);
END $$;
`,
};
