import { Inject, Injectable } from '@nestjs/common';
import { EnvironmentScope } from '@app/kernel';
import { TENANT_REPOSITORY, TenantPage, TenantRepository } from '../../ports/tenant.repository.port';

export interface ListTenantsCommand {
  scope: EnvironmentScope;
  /** 0-based. */
  page: number;
  limit: number;
}

@Injectable()
export class ListTenants {
  constructor(@Inject(TENANT_REPOSITORY) private readonly tenants: TenantRepository) {}

  execute(command: ListTenantsCommand): Promise<TenantPage> {
    return this.tenants.list(command.scope, { page: command.page, limit: command.limit });
  }
}
