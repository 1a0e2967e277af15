import { Inject, Injectable, Optional } from '@nestjs/common';
import { CLOCK, Clock, EnvironmentScope, OUTBOUND_EVENTS, OutboundEvents, noOutboundEvents } from '@app/kernel';
import { WorkflowIdentifierTakenError, WorkflowNotFoundError, WorkflowUpdateConflictError } from '../../domain/errors';
import { Workflow, workflowEventObject, workflowReference } from '../../domain/workflow';
import { WorkflowFields, applyWorkflowFields } from '../../domain/workflow-fields';
import { WORKFLOW_REPOSITORY, WorkflowRepository } from '../../ports/workflow.repository.port';
import { LAYOUT_REPOSITORY, LayoutRepository } from '../../ports/layout.repository.port';
import { withStepLayouts } from '../layouts/step-layouts';

export interface UpdateWorkflowCommand {
  scope: EnvironmentScope;
  /** Internal `_id` or trigger identifier. */
  workflowId: string;
  /** Fields left out stay as they are; `steps` replaces the step list. */
  changes: WorkflowFields;
}

const ATTEMPTS = 3;

@Injectable()
export class UpdateWorkflow {
  constructor(
    @Inject(WORKFLOW_REPOSITORY) private readonly workflows: WorkflowRepository,
    @Inject(CLOCK) private readonly clock: Clock,
    @Inject(LAYOUT_REPOSITORY) private readonly layouts: LayoutRepository,
    @Optional() @Inject(OUTBOUND_EVENTS) private readonly events: OutboundEvents = noOutboundEvents,
  ) {}

  async execute({ scope, workflowId, changes: given }: UpdateWorkflowCommand): Promise<Workflow> {
    const changes = given.steps ? { ...given, steps: await withStepLayouts(this.layouts, scope, given.steps) } : given;
    // Read, change, compare-and-set: a concurrent writer makes us re-read rather than overwrite it.
    for (let attempt = 0; attempt < ATTEMPTS; attempt++) {
      const current = await this.workflows.findByIdOrIdentifier(scope, workflowReference(workflowId));
      if (!current) throw new WorkflowNotFoundError(workflowId);
      const next: Workflow = { ...applyWorkflowFields(current, changes), updatedAt: this.clock.now(), revision: current.revision + 1 };
      const result = await this.workflows.update(next, current.revision);
      if (result === 'updated') {
        await this.events.publish(scope, {
          type: 'workflow.updated',
          key: `${next.id}:${next.revision}`,
          object: workflowEventObject(next),
          previousObject: workflowEventObject(current),
          occurredAt: next.updatedAt,
        });
        return next;
      }
      if (result === 'identifier_taken') throw new WorkflowIdentifierTakenError(next.trigger.identifier);
      if (result === 'not_found') throw new WorkflowNotFoundError(workflowId);
    }
    throw new WorkflowUpdateConflictError(workflowId);
  }
}
