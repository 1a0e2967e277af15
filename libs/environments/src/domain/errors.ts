import { ConflictError, DomainError, NotFoundError } from '@app/kernel';

export class EnvironmentNameTakenError extends ConflictError {
  constructor(name: string) {
    super('environment_name_taken', `Environment "${name}" already exists in this organization`);
  }
}

export class EnvironmentNotFoundError extends NotFoundError {
  constructor(id: string) {
    super('environment_not_found', `Environment ${id} was not found`);
  }
}

export class ApiKeyNotFoundError extends DomainError {
  constructor() {
    super('api_key_not_found', 'API Key not found', 'unauthorized');
  }
}
