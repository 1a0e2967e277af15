import { Injectable } from '@nestjs/common';
import { StepType } from '../../domain/step-type';
import { SendChannelStep } from './send-channel-step';
import { StepHandler } from './step-handler';
import { DelayStep } from './steps/delay.step';
import { DigestStep } from './steps/digest.step';
import { HttpRequestStep } from './steps/http-request.step';
import { ThrottleStep } from './steps/throttle.step';

/** The handler of each step type RunStep dispatches to; a type with none fails as unsupported. */
@Injectable()
export class StepHandlers {
  private readonly byType: Partial<Record<StepType, StepHandler>>;

  constructor(channel: SendChannelStep, delay: DelayStep, digest: DigestStep, throttle: ThrottleStep, httpRequest: HttpRequestStep) {
    this.byType = { in_app: channel, email: channel, sms: channel, chat: channel, push: channel, delay, digest, throttle, http_request: httpRequest };
  }

  of(type: StepType): StepHandler | undefined {
    return this.byType[type];
  }
}
