import { Inject, Injectable } from '@nestjs/common';
import { CLOCK, Clock, EnvironmentScope, newId } from '@app/kernel';
import { Tenant } from '../../domain/tenant';
import { TenantIdentifierTakenError } from '../../domain/errors';
import { TENANT_REPOSITORY, TenantRepository } from '../../ports/tenant.repository.port';

export interface CreateTenantCommand {
  scope: EnvironmentScope;
  identifier: string;
  name?: string;
  data?: Record<string, unknown>;
}

@Injectable()
export class CreateTenant {
  constructor(
    @Inject(TENANT_REPOSITORY) private readonly tenants: TenantRepository,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  async execute(command: CreateTenantCommand): Promise<Tenant> {
    const now = this.clock.now();
    const tenant: Tenant = {
      id: newId(now.getTime()),
      organizationId: command.scope.organizationId,
      environmentId: command.scope.environmentId,
      identifier: command.identifier,
      ...(command.name !== undefined ? { name: command.name } : {}),
      ...(command.data !== undefined ? { data: command.data } : {}),
      createdAt: now,
      updatedAt: now,
    };
    if (!(await this.tenants.insert(tenant))) throw new TenantIdentifierTakenError(command.identifier, command.scope.environmentId);
    return tenant;
  }
}
