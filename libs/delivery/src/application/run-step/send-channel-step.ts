import { Injectable } from '@nestjs/common';
import { Channel } from '@app/kernel';
import { TemplateRenderError } from '../../domain/errors';
import { DETAIL } from '../../domain/execution-detail';
import { ChatSender } from './channels/chat.sender';
import { EmailSender } from './channels/email.sender';
import { InAppSender } from './channels/in-app.sender';
import { PushSender } from './channels/push.sender';
import { SmsSender } from './channels/sms.sender';
import { StepRecorder } from './channels/step-recorder';
import { StepContext } from './step-context';
import { StepOutcome } from './step-outcome';

export type { StepOutcome } from './step-outcome';

/** Delivers one channel step through the sender of its channel; a template that cannot render fails the step. */
@Injectable()
export class SendChannelStep {
  private readonly senders: Record<Channel, { execute(context: StepContext): Promise<StepOutcome> }>;

  constructor(
    inApp: InAppSender,
    email: EmailSender,
    sms: SmsSender,
    chat: ChatSender,
    push: PushSender,
    private readonly recorder: StepRecorder,
  ) {
    this.senders = { in_app: inApp, email, sms, chat, push };
  }

  async execute(context: StepContext): Promise<StepOutcome> {
    try {
      return await this.senders[context.job.type as Channel].execute(context);
    } catch (error) {
      if (!(error instanceof TemplateRenderError)) throw error;
      await this.recorder.detail(context, 'Failed', DETAIL.MESSAGE_CONTENT_NOT_GENERATED, { raw: { error: error.message }, source: 'Payload' });
      return { kind: 'failed', reason: DETAIL.MESSAGE_CONTENT_NOT_GENERATED };
    }
  }
}
