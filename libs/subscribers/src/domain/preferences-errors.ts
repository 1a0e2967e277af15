import { InvalidRequestError, NotFoundError } from '@app/kernel';

export class PreferencesSubscriberNotFoundError extends NotFoundError {
  constructor(subscriberId: string) {
    super('subscriber_not_found', `Subscriber with id: ${subscriberId} not found`);
  }
}

/** Novu's wording, with the id flattened onto the error body. */
export class PreferencesWorkflowNotFoundError extends NotFoundError {
  constructor(workflowId: string) {
    super('workflow_not_found', 'Workflow cannot be found', { workflowId });
  }
}

export class CriticalWorkflowPreferencesError extends InvalidRequestError {
  constructor(workflowId: string) {
    super('critical_workflow_preferences', `Critical workflow with id: ${workflowId} can not be updated`);
  }
}

/** The schedule lives on the global preferences only. */
export class WorkflowScheduleNotSupportedError extends InvalidRequestError {
  constructor() {
    super('schedule_requires_global_preferences', 'A schedule applies to global preferences only; send it without workflowId');
  }
}

/** Bulk update: Novu's wording, every unknown workflow named. */
export class WorkflowsNotFoundError extends NotFoundError {
  constructor(workflowIds: string[]) {
    super('workflow_not_found', `Workflows with ids: ${workflowIds.join(', ')} not found`, { workflowIds });
  }
}

export class CriticalWorkflowsPreferencesError extends InvalidRequestError {
  constructor(workflowIds: string[]) {
    super('critical_workflow_preferences', `Critical workflows with ids: ${workflowIds.join(', ')} cannot be updated`);
  }
}

export class EmptyBulkPreferencesError extends InvalidRequestError {
  constructor() {
    super('no_preferences', 'No preferences provided for bulk update');
  }
}
