import { Inject, Injectable } from '@nestjs/common';
import { DeliveryEventRecord, DeliveryEventRepository } from '@app/delivery';
import { SQL_CLIENT, SqlClient } from '../sql-client';
import { raw, sql } from '../sql-statement';
import { NewRow, insertInto } from '../sql-table';
import { DeliveryEventRow, deliveryEvents } from '../tables';
import { deleteOldest } from './sql-retention';

function toRecord(row: DeliveryEventRow): DeliveryEventRecord {
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
    const row: NewRow<typeof deliveryEvents> = {
      id: record.id,
      organization_id: record.organizationId,
      environment_id: record.environmentId,
      integration_id: record.integrationId,
      event_key: record.eventKey,
      message_id: record.messageId,
      type: record.type,
      occurred_at: record.occurredAt,
      created_at: record.createdAt,
    };
    const rows = await this.sql.query(sql`${insertInto(deliveryEvents, [row])} ON CONFLICT DO NOTHING RETURNING id`);
    return rows.length === 1;
  }

  async exists(integrationId: string, eventKey: string): Promise<boolean> {
    const rows = await this.sql.query(sql`SELECT 1 FROM delivery_events WHERE integration_id = ${integrationId} AND event_key = ${eventKey}`);
    return rows.length > 0;
  }

  async listByMessage(messageId: string): Promise<DeliveryEventRecord[]> {
    const rows = await this.sql.query<DeliveryEventRow>(sql`SELECT * FROM delivery_events WHERE message_id = ${messageId} ORDER BY occurred_at, id`);
    return rows.map(toRecord);
  }

  deleteOlderThan(before: Date, limit: number): Promise<number> {
    return deleteOldest(this.sql, deliveryEvents, before, limit, raw('true'));
  }
}
