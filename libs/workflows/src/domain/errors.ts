import { ConflictError, NotFoundError, UnprocessableError } from '@app/kernel';
import type { FieldErrors } from './step-rules';

export class WorkflowNotFoundError extends NotFoundError {
  constructor(id: string) {
    super('workflow_not_found', `Workflow with id ${id} not found`);
  }
}

export class WorkflowIdentifierTakenError extends ConflictError {
  constructor(identifier: string) {
    super('workflow_identifier_taken', `Workflow with identifier ${identifier} already exists`);
  }
}

/** Rules that span fields (a digest needs its window, a delay its amount…), in the ValidationPipe's shape. */
export class WorkflowInvalidError extends UnprocessableError {
  constructor(errors: FieldErrors) {
    super('workflow_invalid', 'Validation Error', { errors });
  }
}

/** Two writers raced on the same workflow and this one lost every retry. */
export class WorkflowUpdateConflictError extends ConflictError {
  constructor(id: string) {
    super('workflow_update_conflict', `Workflow ${id} was changed by another request; retry`);
  }
}
