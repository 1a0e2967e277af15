import { Inject, Injectable } from '@nestjs/common';
import { EnvironmentScope } from '@app/kernel';
import { Translation, TranslationRepository, TranslationResource, TranslationSettings } from '@app/workflows';
import { SQL_CLIENT, SqlClient } from '../sql-client';
import { sql } from '../sql-statement';
import { insertInto } from '../sql-table';
import { TranslationRow, TranslationSettingsRow, translationSettings, translations } from '../tables';

function toTranslation(r: TranslationRow): Translation {
  return {
    id: r.id,
    organizationId: r.organization_id,
    environmentId: r.environment_id,
    resourceType: r.resource_type,
    resourceKey: r.resource_key,
    locale: r.locale,
    content: r.content,
    createdAt: r.created_at,
    updatedAt: r.updated_at,
  };
}

/** The rows of one resource. */
const ofResource = (scope: EnvironmentScope, resource: TranslationResource) =>
  sql`environment_id = ${scope.environmentId} AND resource_type = ${resource.type} AND resource_key = ${resource.key}`;

/** TranslationRepository on PostgreSQL and PGlite: one row per (environment, resource, locale), held by a unique constraint. */
@Injectable()
export class SqlTranslationRepository implements TranslationRepository {
  constructor(@Inject(SQL_CLIENT) private readonly sql: SqlClient) {}

  async upsert(t: Translation): Promise<Translation> {
    const row = {
      id: t.id,
      organization_id: t.organizationId,
      environment_id: t.environmentId,
      resource_type: t.resourceType,
      resource_key: t.resourceKey,
      locale: t.locale,
      content: t.content,
      created_at: t.createdAt,
      updated_at: t.updatedAt,
    };
    const [stored] = await this.sql.query<TranslationRow>(
      sql`${insertInto(translations, [row])}
          ON CONFLICT (environment_id, resource_type, resource_key, locale) DO UPDATE SET content = EXCLUDED.content, updated_at = EXCLUDED.updated_at
          RETURNING *`,
    );
    return toTranslation(stored);
  }

  async find(scope: EnvironmentScope, resource: TranslationResource, locale: string): Promise<Translation | null> {
    const [row] = await this.sql.query<TranslationRow>(sql`SELECT * FROM translations WHERE ${ofResource(scope, resource)} AND locale = ${locale}`);
    return row ? toTranslation(row) : null;
  }

  async listForResource(scope: EnvironmentScope, resource: TranslationResource): Promise<Translation[]> {
    const rows = await this.sql.query<TranslationRow>(sql`SELECT * FROM translations WHERE ${ofResource(scope, resource)} ORDER BY locale`);
    return rows.map(toTranslation);
  }

  async listForLocale(scope: EnvironmentScope, locale: string): Promise<Translation[]> {
    const rows = await this.sql.query<TranslationRow>(
      sql`SELECT * FROM translations WHERE environment_id = ${scope.environmentId} AND locale = ${locale} ORDER BY resource_type, resource_key`,
    );
    return rows.map(toTranslation);
  }

  async delete(scope: EnvironmentScope, resource: TranslationResource, locale: string): Promise<boolean> {
    const rows = await this.sql.query(sql`DELETE FROM translations WHERE ${ofResource(scope, resource)} AND locale = ${locale} RETURNING id`);
    return rows.length === 1;
  }

  async deleteResource(scope: EnvironmentScope, resource: TranslationResource): Promise<number> {
    return (await this.sql.query(sql`DELETE FROM translations WHERE ${ofResource(scope, resource)} RETURNING id`)).length;
  }

  async findSettings(scope: EnvironmentScope): Promise<TranslationSettings | null> {
    const [row] = await this.sql.query<TranslationSettingsRow>(sql`SELECT * FROM translation_settings WHERE environment_id = ${scope.environmentId}`);
    return row ? { defaultLocale: row.default_locale, targetLocales: row.target_locales } : null;
  }

  async saveSettings(scope: EnvironmentScope, settings: TranslationSettings): Promise<void> {
    const row = {
      environment_id: scope.environmentId,
      organization_id: scope.organizationId,
      default_locale: settings.defaultLocale,
      target_locales: settings.targetLocales,
    };
    await this.sql.query(
      sql`${insertInto(translationSettings, [row])}
          ON CONFLICT (environment_id) DO UPDATE SET default_locale = EXCLUDED.default_locale, target_locales = EXCLUDED.target_locales`,
    );
  }
}
