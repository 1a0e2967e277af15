import { Injectable } from '@nestjs/common';
import { StepType } from '../../domain/step-type';
import { SendChannelStep } from './send-channel-step';
import { StepHandler } from './step-handler';
import { RunAheadWrites, StepWrites } from './step-writes';
import { DelayStep } from './steps/delay.step';
import { DigestStep } from './steps/digest.step';
import { HttpRequestStep } from './steps/http-request.step';
import { ThrottleStep } from './steps/throttle.step';

export type HandlersByType<W extends RunAheadWrites> = Partial<Record<StepType, StepHandler<W>>>;

/** The handler of each step type RunStep dispatches to; a type with none fails as unsupported. */
@Injectable()
export class StepHandlers {
  /** Against the store and the queue: every supported step. */
  readonly stored: HandlersByType<StepWrites>;
  /**
   * Against a chain not written yet: only the steps that write nothing outside it (no provider
   * call, no digest bucket). The types keep it so: a handler that needs StepWrites does not fit here.
   */
  readonly runAhead: HandlersByType<RunAheadWrites>;

  constructor(channel: SendChannelStep, delay: DelayStep, digest: DigestStep, throttle: ThrottleStep, httpRequest: HttpRequestStep) {
    this.stored = { in_app: channel, email: channel, sms: channel, chat: channel, push: channel, delay, digest, throttle, http_request: httpRequest };
    this.runAhead = { in_app: channel.inApp };
  }
}
