import { Inject, Injectable } from '@nestjs/common';
import { CLOCK, Clock, EnvironmentScope, newId } from '@app/kernel';
import { Tenant } from '../../domain/tenant';
import { TENANT_REPOSITORY, TenantRepository } from '../../ports/tenant.repository.port';

export interface UpsertTenantCommand {
  scope: EnvironmentScope;
  identifier: string;
  name?: string;
  data?: Record<string, unknown>;
}

/**
 * The trigger's `tenant` (string or object): an existing tenant gets the details given, a missing
 * one is created — as Novu's worker does — in one atomic step so concurrent triggers agree.
 */
@Injectable()
export class UpsertTenant {
  constructor(
    @Inject(TENANT_REPOSITORY) private readonly tenants: TenantRepository,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  async execute(command: UpsertTenantCommand): Promise<{ tenant: Tenant; created: boolean }> {
    const now = this.clock.now();
    const changes = {
      ...(command.name !== undefined ? { name: command.name } : {}),
      ...(command.data !== undefined ? { data: command.data } : {}),
    };
    return this.tenants.upsert(command.scope, command.identifier, changes, { newId: newId(now.getTime()), now });
  }
}
