import type { Migration } from './migration';

// How common each trigram of the searched texts is (email, phone, full name: the expressions of
// migration 20's indexes), as extended statistics that ANALYZE keeps: a search leaves the common
// trigrams out of the pattern it gives the index first (see trigram-prefilter.ts). Where pg_trgm is
// missing, or expression statistics are (PostgreSQL before 14), there is nothing to do: searches keep
// their plain pattern. The ANALYZE gathers them at once, rather than when autovacuum next samples the table.
export const subscriberSearchStatisticsMigration: Migration = {
  version: 24,
  name: 'subscriber_search_statistics',
  sql: `
DO $$
DECLARE
  trigrams text;
BEGIN
  SELECT quote_ident(n.nspname) || '.show_trgm' INTO trigrams
    FROM pg_extension e JOIN pg_namespace n ON n.oid = e.extnamespace WHERE e.extname = 'pg_trgm';
  IF trigrams IS NULL THEN
    RAISE NOTICE 'pg_trgm is not available: no trigram statistics for subscriber searches';
    RETURN;
  END IF;
  BEGIN
    EXECUTE format('CREATE STATISTICS subscribers_email_trigrams ON (%s(email)) FROM subscribers', trigrams);
    EXECUTE format('CREATE STATISTICS subscribers_phone_trigrams ON (%s(phone)) FROM subscribers', trigrams);
    EXECUTE format($f$CREATE STATISTICS subscribers_name_trigrams ON (%s(btrim(coalesce(first_name, '') || ' ' || coalesce(last_name, '')))) FROM subscribers$f$, trigrams);
  EXCEPTION WHEN syntax_error OR feature_not_supported THEN
    RAISE NOTICE 'no expression statistics on this server (%): subscriber searches keep their plain patterns', SQLERRM;
    RETURN;
  END;
  ANALYZE subscribers;
END $$;
`,
};
