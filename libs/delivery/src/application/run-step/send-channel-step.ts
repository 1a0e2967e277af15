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
import { RunAheadWrites, StepWrites } from './step-writes';

export type { StepOutcome } from './step-outcome';

/** A property, not a method: a sender that needs StepWrites is no Sender<RunAheadWrites>. */
type Sender<W extends RunAheadWrites> = { readonly execute: (context: StepContext<W>) => Promise<StepOutcome> };

/**
 * The channel steps' handler: delivers through the sender of the step's channel; a template that
 * cannot render fails the step. `inApp` is the one channel a chain not written yet may run.
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
  ) {
    this.senders = { in_app: inApp, email, sms, chat, push };
    this.inApp = { run: (context) => this.send(context, inApp) };
  }

  run(context: StepContext): Promise<StepOutcome> {
    return this.send(context, this.senders[context.job.type as Channel]);
  }

  private async send<W extends RunAheadWrites>(context: StepContext<W>, sender: Sender<W>): Promise<StepOutcome> {
    try {
      return await sender.execute(context);
    } catch (error) {
      if (!(error instanceof TemplateRenderError)) throw error;
      await this.recorder.detail(context, 'Failed', DETAIL.MESSAGE_CONTENT_NOT_GENERATED, { raw: { error: error.message }, source: 'Payload' });
      return { kind: 'failed', reason: DETAIL.MESSAGE_CONTENT_NOT_GENERATED };
    }
  }
}
