import { ConflictError, NotFoundError } from '@app/kernel';

// Messages as Novu words them, so clients matching on them keep working.
export class TenantNotFoundError extends NotFoundError {
  constructor(identifier: string, environmentId: string) {
    super('tenant_not_found', `Tenant with identifier: ${identifier} does not exist under environment ${environmentId}`);
  }
}

export class TenantIdentifierTakenError extends ConflictError {
  constructor(identifier: string, environmentId: string) {
    super('tenant_identifier_taken', `Tenant with identifier: ${identifier} already exists under environment ${environmentId}`);
  }
}
