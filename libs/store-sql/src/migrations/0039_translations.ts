import type { Migration } from './migration';

/**
 * Translations: one row per (environment, resource, locale) holding the locale's texts, and each
 * environment's locale settings (default and target locales). New, empty tables: their indexes build
 * inside the transaction.
 */
export const translationsMigration: Migration = {
  version: 39,
  name: 'translations',
  sql: `
CREATE TABLE translations (
  id text PRIMARY KEY,
  organization_id text NOT NULL,
  environment_id text NOT NULL,
  resource_type text NOT NULL,
  resource_key text NOT NULL,
  locale text NOT NULL,
  content jsonb NOT NULL,
  created_at timestamptz NOT NULL,
  updated_at timestamptz NOT NULL,
  UNIQUE (environment_id, resource_type, resource_key, locale)
);
CREATE INDEX translations_environment_locale ON translations (environment_id, locale);

CREATE TABLE translation_settings (
  environment_id text PRIMARY KEY,
  organization_id text NOT NULL,
  default_locale text NOT NULL,
  target_locales text[] NOT NULL
);
`,
};
