import { Tenant } from '@app/tenants';
import { TenantResponseDto } from './tenant.dto';

/** Domain → wire shape (Novu's field names; absent optional fields stay out). */
export function toTenantResponse(tenant: Tenant): TenantResponseDto {
  return {
    _id: tenant.id,
    identifier: tenant.identifier,
    ...(tenant.name !== undefined ? { name: tenant.name } : {}),
    ...(tenant.data !== undefined ? { data: tenant.data } : {}),
    _environmentId: tenant.environmentId,
    createdAt: tenant.createdAt.toISOString(),
    updatedAt: tenant.updatedAt.toISOString(),
  };
}
