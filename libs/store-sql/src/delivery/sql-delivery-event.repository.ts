import { Inject, Injectable } from '@nestjs/common';
import { DeliveryEventRecord, DeliveryEventRepository } from '@app/delivery';
import { SQL_CLIENT, SqlClient } from '../sql-client';
import { deleteOldest } from './sql-retention';

function toRecord(row: any): DeliveryEventRecord {
  return {
    id: row.id,
    organizationId: row.organization_id,
    environmentId: row.environment_id,
    integrationId: row.integration_id,
    eventKey: row.event_key,
    messageId: row.message_id,
    type: row.type,
    occurredAt: row.occurred_at,
    createdAt: row.created_at,
  };
}

@Injectable()
export class SqlDeliveryEventRepository implements DeliveryEventRepository {
  constructor(@Inject(SQL_CLIENT) private readonly sql: SqlClient) {}

  async insertIfAbsent(record: DeliveryEventRecord): Promise<boolean> {
    const rows = await this.sql.query(
      `INSERT INTO delivery_events (id, organization_id, environment_id, integration_id, event_key, message_id, type, occurred_at, created_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9) ON CONFLICT DO NOTHING RETURNING id`,
      [
        record.id,
        record.organizationId,
        record.environmentId,
        record.integrationId,
        record.eventKey,
        record.messageId,
        record.type,
        record.occurredAt,
        record.createdAt,
      ],
    );
    return rows.length === 1;
  }

  async exists(integrationId: string, eventKey: string): Promise<boolean> {
    const rows = await this.sql.query('SELECT 1 FROM delivery_events WHERE integration_id = $1 AND event_key = $2', [integrationId, eventKey]);
    return rows.length > 0;
  }

  async listByMessage(messageId: string): Promise<DeliveryEventRecord[]> {
    const rows = await this.sql.query('SELECT * FROM delivery_events WHERE message_id = $1 ORDER BY occurred_at, id', [messageId]);
    return rows.map(toRecord);
  }

  deleteOlderThan(before: Date, limit: number): Promise<number> {
    return deleteOldest(this.sql, 'delivery_events', before, limit, 'true', []);
  }
}
