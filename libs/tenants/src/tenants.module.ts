import { Module } from '@nestjs/common';
import { CreateTenant } from './application/create-tenant/create-tenant.use-case';
import { DeleteTenant } from './application/delete-tenant/delete-tenant.use-case';
import { GetTenant } from './application/get-tenant/get-tenant.use-case';
import { ListTenants } from './application/list-tenants/list-tenants.use-case';
import { UpdateTenant } from './application/update-tenant/update-tenant.use-case';
import { UpsertTenant } from './application/upsert-tenant/upsert-tenant.use-case';

const useCases = [CreateTenant, GetTenant, ListTenants, UpdateTenant, DeleteTenant, UpsertTenant];

/** Use cases of the tenants context; repository tokens come from the global store module. */
@Module({ providers: useCases, exports: useCases })
export class TenantsModule {}
