import { Inject, Injectable } from '@nestjs/common';
import { EnvironmentScope } from '@app/kernel';
import { Tenant } from '../../domain/tenant';
import { TenantNotFoundError } from '../../domain/errors';
import { TENANT_REPOSITORY, TenantRepository } from '../../ports/tenant.repository.port';

export interface GetTenantCommand {
  scope: EnvironmentScope;
  identifier: string;
}

@Injectable()
export class GetTenant {
  constructor(@Inject(TENANT_REPOSITORY) private readonly tenants: TenantRepository) {}

  async execute(command: GetTenantCommand): Promise<Tenant> {
    const tenant = await this.tenants.findByIdentifier(command.scope, command.identifier);
    if (!tenant) throw new TenantNotFoundError(command.identifier, command.scope.environmentId);
    return tenant;
  }
}
