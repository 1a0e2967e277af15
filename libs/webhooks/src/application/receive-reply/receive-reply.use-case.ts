import { Inject, Injectable, Logger } from '@nestjs/common';
import { JOB_REPOSITORY, JobRepository, ReplyAddresses } from '@app/delivery';
import { CLOCK, Clock, deterministicId, newId } from '@app/kernel';
import { WORKFLOW_REPOSITORY, WorkflowRepository } from '@app/workflows';
import { InboundMail, InboundMailHandler } from '../../ports/inbound-mail';
import { GetReplyCallbackSigner } from '../get-reply-callback-secret/get-reply-callback-secret.use-case';
import { PublishOutboundEvent } from '../publish-event/publish-outbound-event.use-case';

/**
 * A subscriber answered an email of a step with a reply callback: the reply, parsed, is POSTed to
 * the step's replyCallback.url through the outbound webhook path (outbox, retries, network rules),
 * signed with the environment's reply-callback secret. The recipient address says which job it
 * answers (ReplyAddresses: signed, so it cannot be made up).
 */
@Injectable()
export class ReceiveReply implements InboundMailHandler {
  private readonly logger = new Logger(ReceiveReply.name);

  constructor(
    @Inject(JOB_REPOSITORY) private readonly jobs: JobRepository,
    @Inject(WORKFLOW_REPOSITORY) private readonly workflows: WorkflowRepository,
    @Inject(CLOCK) private readonly clock: Clock,
    private readonly addresses: ReplyAddresses,
    private readonly signer: GetReplyCallbackSigner,
    private readonly publisher: PublishOutboundEvent,
  ) {}

  accepts(address: string): boolean {
    return this.addresses.jobOf(address) !== undefined;
  }

  async receive(recipients: string[], mail: InboundMail): Promise<void> {
    const mailId = mail.messageId ?? newId();
    for (const recipient of recipients) {
      const jobId = this.addresses.jobOf(recipient);
      if (!jobId) continue;
      const job = await this.jobs.findById(jobId);
      if (!job) {
        this.logger.warn(`A reply to ${recipient} names job ${jobId}, which no longer exists: dropped`);
        continue;
      }
      const scope = { organizationId: job.organizationId, environmentId: job.environmentId };
      const workflow = await this.workflows.findByIdIncludingDeleted(scope, job.workflowId);
      const step = workflow?.steps.find((candidate) => candidate.id === job.stepId);
      // The step's own callback, else one of its variants' (the reply does not say which variant was sent).
      const callback = [step?.replyCallback, ...(step?.variants ?? []).map((variant) => variant.replyCallback)].find((entry) => entry?.active && entry.url);
      if (!workflow || !step || !callback?.url) {
        this.logger.warn(`A reply for job ${jobId} has no active reply callback on its step: dropped`);
        continue;
      }
      const signer = await this.signer.execute(scope);
      const now = this.clock.now();
      const body = JSON.stringify({
        type: 'reply.received',
        timestamp: now.toISOString(),
        data: {
          from: mail.from ?? null,
          to: mail.to,
          subject: mail.subject ?? '',
          text: mail.text ?? '',
          html: mail.html ?? '',
          attachments: mail.attachments.map((attachment) => ({
            name: attachment.filename ?? null,
            contentType: attachment.contentType,
            size: attachment.size,
          })),
          ...(mail.messageId ? { messageId: mail.messageId } : {}),
          ...(mail.inReplyTo ? { inReplyTo: mail.inReplyTo } : {}),
          environmentId: job.environmentId,
          transactionId: job.transactionId,
          subscriberId: job.externalSubscriberId,
          _subscriberId: job.subscriberId,
          workflowId: workflow.trigger.identifier,
          _workflowId: workflow.id,
          stepId: step.id,
          notificationId: job.notificationId,
          jobId: job.id,
        },
      });
      await this.publisher.enqueue([
        {
          id: `msg_${deterministicId('reply', mailId, job.id)}`,
          ...scope,
          endpointId: signer.id,
          eventType: 'reply.received',
          body,
          url: callback.url,
          status: 'pending',
          attempts: 0,
          nextAttemptAt: now,
          createdAt: now,
          updatedAt: now,
        },
      ]);
    }
  }
}
