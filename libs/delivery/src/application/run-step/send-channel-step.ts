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
import { RunAheadWrites, StepWrites } from './step-writes';

export type { StepOutcome } from './step-outcome';

/** A property, not a method: a sender that needs StepWrites is no Sender<RunAheadWrites>. */
type Sender<W extends RunAheadWrites> = { readonly execute: (context: StepContext<W>) => Promise<StepOutcome> };

/**
 * The channel steps' handler: delivers through the sender of the step's channel, its templates
 * reading the workflow's translations (`{{ t.<key> }}`) in the subscriber's locale; a template that
 * cannot render fails the step, and keys the subscriber's locale lacks are reported (a Warning, on
 * the first attempt). `inApp` is the one channel a chain not written yet may run.
 */
@Injectable()
export class SendChannelStep implements StepHandler {
  private readonly senders: Record<Channel, Sender<StepWrites>>;
  /** The in-app step alone, on RunAheadWrites: it calls no one outside. */
  readonly inApp: StepHandler<RunAheadWrites>;

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
    this.inApp = { run: (context) => this.send(context, inApp) };
  }

  run(context: StepContext): Promise<StepOutcome> {
    return this.send(context, this.senders[context.job.type as Channel]);
  }

  private async send<W extends RunAheadWrites>(context: StepContext<W>, sender: Sender<W>): Promise<StepOutcome> {
    const translations = await this.translations.forStep(context.scope, context.workflow, context.step.template, context.subscriber.locale);
    try {
      const outcome = await sender.execute(translations ? { ...context, translations } : context);
      const misses = translations?.misses();
      if (misses && context.attempt.made === 0)
        await this.recorder.detail(context, 'Warning', DETAIL.TRANSLATION_KEYS_MISSING, { raw: misses, source: 'Payload' });
      return outcome;
    } catch (error) {
      if (!(error instanceof TemplateRenderError)) throw error;
      await this.recorder.detail(context, 'Failed', DETAIL.MESSAGE_CONTENT_NOT_GENERATED, { raw: { error: error.message }, source: 'Payload' });
      return { kind: 'failed', reason: DETAIL.MESSAGE_CONTENT_NOT_GENERATED };
    }
  }
}
