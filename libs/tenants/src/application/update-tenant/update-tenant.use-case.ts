import { Inject, Injectable } from '@nestjs/common';
import { CLOCK, Clock, EnvironmentScope } from '@app/kernel';
import { Tenant, TenantChanges } from '../../domain/tenant';
import { TenantIdentifierTakenError, TenantNotFoundError } from '../../domain/errors';
import { TENANT_REPOSITORY, TenantRepository } from '../../ports/tenant.repository.port';

export interface UpdateTenantCommand {
  scope: EnvironmentScope;
  identifier: string;
  changes: TenantChanges;
}

@Injectable()
export class UpdateTenant {
  constructor(
    @Inject(TENANT_REPOSITORY) private readonly tenants: TenantRepository,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  async execute(command: UpdateTenantCommand): Promise<Tenant> {
    const { scope, identifier, changes } = command;
    const result = await this.tenants.update(scope, identifier, changes, this.clock.now());
    if (result.status === 'not_found') throw new TenantNotFoundError(identifier, scope.environmentId);
    if (result.status === 'identifier_taken') throw new TenantIdentifierTakenError(changes.identifier!, scope.environmentId);
    return result.tenant;
  }
}
