import { Inject, Injectable, Optional } from '@nestjs/common';
import { CLOCK, Clock, EnvironmentScope, OUTBOUND_EVENTS, OutboundEvents, noOutboundEvents } from '@app/kernel';
import { WorkflowNotFoundError } from '../../domain/errors';
import { workflowEventObject, workflowReference } from '../../domain/workflow';
import { TRANSLATION_REPOSITORY, TranslationRepository } from '../../ports/translation.repository.port';
import { WORKFLOW_REPOSITORY, WorkflowRepository } from '../../ports/workflow.repository.port';

export interface DeleteWorkflowCommand {
  scope: EnvironmentScope;
  /** Internal `_id` or trigger identifier. */
  workflowId: string;
  deletedBy: string;
}

/** Soft delete, as Novu: the record stays for the messages that embed it; its identifier is freed, its translations go. */
@Injectable()
export class DeleteWorkflow {
  constructor(
    @Inject(WORKFLOW_REPOSITORY) private readonly workflows: WorkflowRepository,
    @Inject(TRANSLATION_REPOSITORY) private readonly translations: TranslationRepository,
    @Inject(CLOCK) private readonly clock: Clock,
    @Optional() @Inject(OUTBOUND_EVENTS) private readonly events: OutboundEvents = noOutboundEvents,
  ) {}

  async execute({ scope, workflowId, deletedBy }: DeleteWorkflowCommand): Promise<void> {
    const workflow = await this.workflows.findByIdOrIdentifier(scope, workflowReference(workflowId));
    const now = this.clock.now();
    if (!workflow || !(await this.workflows.softDelete(scope, workflow.id, deletedBy, now))) {
      throw new WorkflowNotFoundError(workflowId);
    }
    await this.translations.deleteResource(scope, { type: 'workflow', key: workflow.id });
    await this.events.publish(scope, {
      type: 'workflow.deleted',
      key: workflow.id,
      object: workflowEventObject({ ...workflow, deletedAt: now, deletedBy }),
      occurredAt: now,
    });
  }
}
