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
import { StepHandler } from './step-handler';
import { StepOutcome } from './step-outcome';
import { StepTranslations } from './step-translations';

export type { StepOutcome } from './step-outcome';

type Sender = { execute(context: StepContext): Promise<StepOutcome> };

/**
 * The channel steps' handler: delivers through the sender of the step's channel, its templates
 * reading the workflow's translations (`{{ t.<key> }}`) in the subscriber's locale; a template that
 * cannot render fails the step, and keys the subscriber's locale lacks are reported (a Warning, on
 * the first attempt).
 */
@Injectable()
export class SendChannelStep implements StepHandler {
  private readonly senders: Record<Channel, Sender>;

  constructor(
    inApp: InAppSender,
    email: EmailSender,
    sms: SmsSender,
    chat: ChatSender,
    push: PushSender,
    private readonly recorder: StepRecorder,
    private readonly translations: StepTranslations,
  ) {
    this.senders = { in_app: inApp, email, sms, chat, push };
  }

  async run(context: StepContext): Promise<StepOutcome> {
    const sender = this.senders[context.job.type as Channel];
    const translations = await this.translations.forStep(context.scope, context.workflow, context.step.template, context.subscriber.locale);
    try {
      const outcome = await sender.execute(translations ? { ...context, translations } : context);
      const misses = translations?.misses();
      if (misses && context.attempt.made === 0) this.recorder.detail(context, 'Warning', DETAIL.TRANSLATION_KEYS_MISSING, { raw: misses, source: 'Payload' });
      return outcome;
    } catch (error) {
      if (!(error instanceof TemplateRenderError)) throw error;
      this.recorder.detail(context, 'Failed', DETAIL.MESSAGE_CONTENT_NOT_GENERATED, { raw: { error: error.message }, source: 'Payload' });
      return { kind: 'failed', reason: DETAIL.MESSAGE_CONTENT_NOT_GENERATED };
    }
  }
}
