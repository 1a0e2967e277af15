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

// Environment variables: messages as Novu words them.
export class EnvironmentVariableNotFoundError extends NotFoundError {
  constructor(key: string) {
    super('environment_variable_not_found', `Environment variable with key "${key}" not found`);
  }
}

export class EnvironmentVariableKeyTakenError extends ConflictError {
  constructor(key: string) {
    super('environment_variable_key_taken', `Environment variable with key "${key}" already exists`);
  }
}

/** The mask a secret is shown as, sent back as a value: it would overwrite the real secret. */
export class SecretMaskValueError extends InvalidRequestError {
  constructor() {
    super(
      'environment_variable_mask_value',
      'Submitted value matches the secret mask placeholder; provide the real value or omit the entry to keep the existing one.',
    );
  }
}

export class EnvironmentVariableNoChangesError extends InvalidRequestError {
  constructor() {
    super('environment_variable_no_changes', 'At least one field must be provided to update');
  }
}

/** An API key writes its own environment's values only (Novu's rule for API keys). */
export class EnvironmentVariableScopeError extends DomainError {
  constructor(environmentId: string) {
    super(
      'environment_variable_other_environment',
      `This API key is scoped to a single environment: it cannot set the value of environment ${environmentId}; use a key of that environment`,
      'forbidden',
    );
  }
}
