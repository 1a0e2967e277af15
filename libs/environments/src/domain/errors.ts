import { ConflictError, DomainError, InvalidRequestError, NotFoundError } from '@app/kernel';

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

/** A parent that is not another environment of the organization, or that would make a cycle. */
export class EnvironmentParentInvalidError extends InvalidRequestError {
  constructor(parentId: string, why: string) {
    super('environment_parent_invalid', `parentId ${parentId} ${why}`);
  }
}

/** Publishing's default source and the first start's environment keeps its name. */
export class DevelopmentEnvironmentRenameError extends InvalidRequestError {
  constructor() {
    super('environment_development_rename', 'The Development environment cannot be renamed');
  }
}

const DELETION_REFUSALS = {
  environment_delete_own: 'An API key cannot delete its own environment: use a key of another environment of the organization',
  environment_delete_last: 'The last environment of an organization cannot be deleted',
  environment_delete_development: 'The Development environment cannot be deleted: it is the default source of publishing',
} as const;

export class EnvironmentDeletionRefusedError extends InvalidRequestError {
  constructor(code: keyof typeof DELETION_REFUSALS) {
    super(code, DELETION_REFUSALS[code]);
  }
}
