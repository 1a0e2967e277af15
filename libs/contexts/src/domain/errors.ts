import { ConflictError, NotFoundError } from '@app/kernel';

// Messages as Novu words them.
export class ContextNotFoundError extends NotFoundError {
  constructor(type: string, identifier: string) {
    super('context_not_found', `Context with type '${type}' and id '${identifier}' not found`);
  }
}

export class ContextExistsError extends ConflictError {
  constructor(type: string, identifier: string) {
    super('context_exists', `Context with type '${type}' and id '${identifier}' already exists`);
  }
}
