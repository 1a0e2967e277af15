import { Provider } from '@nestjs/common';
import { TENANT_REPOSITORY } from '@app/tenants';
import { SqlTenantRepository } from './sql-tenant.repository';

export { SqlTenantRepository } from './sql-tenant.repository';
// Repository adapters of the tenants context, bound to their port tokens.
export const sqlTenantsProviders: Provider[] = [{ provide: TENANT_REPOSITORY, useClass: SqlTenantRepository }];
