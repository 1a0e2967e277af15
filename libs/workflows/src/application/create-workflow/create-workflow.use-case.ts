import { Inject, Injectable, Optional } from '@nestjs/common';
import { CLOCK, Clock, EnvironmentScope, OUTBOUND_EVENTS, OutboundEvents, noOutboundEvents, newId } from '@app/kernel';
import { WorkflowIdentifierTakenError } from '../../domain/errors';
import { Workflow, workflowEventObject } from '../../domain/workflow';
import { WorkflowFields, applyWorkflowFields, blankWorkflow, triggerIdentifierFor } from '../../domain/workflow-fields';
import { WORKFLOW_REPOSITORY, WorkflowRepository } from '../../ports/workflow.repository.port';
import { LAYOUT_REPOSITORY, LayoutRepository } from '../../ports/layout.repository.port';
import { withStepLayouts } from '../layouts/step-layouts';

export interface CreateWorkflowCommand {
  scope: EnvironmentScope;
  /** Who created it (the API key's id). */
  creatorId: string;
  fields: WorkflowFields & { name: string };
}

@Injectable()
export class CreateWorkflow {
  constructor(
    @Inject(WORKFLOW_REPOSITORY) private readonly workflows: WorkflowRepository,
    @Inject(CLOCK) private readonly clock: Clock,
    @Inject(LAYOUT_REPOSITORY) private readonly layouts: LayoutRepository,
    @Optional() @Inject(OUTBOUND_EVENTS) private readonly events: OutboundEvents = noOutboundEvents,
  ) {}

  async execute({ scope, creatorId, fields: given }: CreateWorkflowCommand): Promise<Workflow> {
    const fields = given.steps ? { ...given, steps: await withStepLayouts(this.layouts, scope, given.steps) } : given;
    const now = this.clock.now();
    const blank = blankWorkflow(
      { id: newId(now.getTime()), organizationId: scope.organizationId, environmentId: scope.environmentId, creatorId, createdAt: now },
      fields.name,
    );
    // The identifier is always set on create: the caller's, or the slug of the name.
    const workflow = applyWorkflowFields(blank, { ...fields, identifier: triggerIdentifierFor(fields.name, fields.identifier) });
    if (!(await this.workflows.insert(workflow))) throw new WorkflowIdentifierTakenError(workflow.trigger.identifier);
    await this.events.publish(scope, { type: 'workflow.created', key: workflow.id, object: workflowEventObject(workflow), occurredAt: now });
    return workflow;
  }
}
