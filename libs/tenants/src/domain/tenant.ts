/** A customer of the caller's product (Novu "tenant"), known by its `identifier`, unique per environment. */
export interface Tenant {
  id: string;
  organizationId: string;
  environmentId: string;
  identifier: string;
  name?: string;
  data?: Record<string, unknown>;
  createdAt: Date;
  updatedAt: Date;
}

/** Fields a caller may change; absent (undefined) fields stay as they are, null clears name or data. */
export interface TenantChanges {
  identifier?: string;
  name?: string | null;
  data?: Record<string, unknown> | null;
}
