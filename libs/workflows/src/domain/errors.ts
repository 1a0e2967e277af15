import { ConflictError, InvalidRequestError, NotFoundError, UnprocessableError } from '@app/kernel';
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

/** Novu's answer to a status change that changes nothing. */
export class WorkflowStatusUnchangedError extends InvalidRequestError {
  constructor() {
    super('workflow_status_unchanged', 'You must provide a different status from the current status');
  }
}

export class NotificationGroupNotFoundError extends NotFoundError {
  constructor(id: string) {
    super('notification_group_not_found', `Notification group with id ${id} not found`);
  }
}

/** Publishing needs two different environments. */
export class PublishSameEnvironmentError extends InvalidRequestError {
  constructor() {
    super('publish_same_environment', 'The source and the target environment are the same');
  }
}

/** Workflows and layouts are published; other resource types are not. */
export class PublishResourceTypeUnsupportedError extends InvalidRequestError {
  constructor(types: string[]) {
    super('publish_resource_type_unsupported', `Only workflows and layouts are published; not supported: ${types.join(', ')}`, { resourceTypes: types });
  }
}

export class PublishResourcesNotFoundError extends InvalidRequestError {
  constructor(ids: string[]) {
    super('publish_resources_not_found', `The following resources were not found in the source environment: ${ids.join(', ')}`, { resourceIds: ids });
  }
}

export class LayoutNotFoundError extends NotFoundError {
  constructor(reference: string) {
    super('layout_not_found', `Layout ${reference} not found`, { layoutId: reference });
  }
}

export class LayoutIdTakenError extends ConflictError {
  constructor(layoutId: string) {
    super('layout_id_taken', `A layout with layoutId ${layoutId} already exists in this environment`, { layoutId });
  }
}

/** A layout's fields or controls that cannot be used (its body without `{{ content }}`…), in the ValidationPipe's shape. */
export class LayoutInvalidError extends UnprocessableError {
  constructor(errors: FieldErrors) {
    super('layout_invalid', 'Validation Error', { errors });
  }
}

/** As Novu: the environment's default layout is not deleted (make another the default, or none, first). */
export class LayoutIsDefaultError extends ConflictError {
  constructor(layoutId: string) {
    super('layout_is_default', `Layout ${layoutId} is the environment's default layout; it cannot be deleted`, { layoutId });
  }
}

/** A layout email steps name is not deleted: the answer says which workflows use it. */
export class LayoutInUseError extends ConflictError {
  constructor(layoutId: string, workflows: { workflowId: string; name: string }[]) {
    super('layout_in_use', `Layout ${layoutId} is used by ${workflows.map((w) => w.workflowId).join(', ')}; change their email steps first`, {
      layoutId,
      workflows,
    });
  }
}
