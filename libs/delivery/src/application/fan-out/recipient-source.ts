import { EnvironmentScope } from '@app/kernel';
import { TriggerRecipients } from '../../domain/trigger';
import { RecipientContext } from './build-notification';

/** One trigger's fan-out as each recipient source sees it. */
export interface FanOutRun {
  scope: EnvironmentScope;
  recipients: TriggerRecipients;
  context: RecipientContext;
  /** Recipients read and delivered this many at a time at most. */
  batchSize: number;
  /** The subscriberIds delivered to (or left out, as the actor) so far: a subscriber gets one notification. */
  seen: Set<string>;
}

/**
 * Where a trigger's subscribers come from (inline in `to`, a topic's members, every subscriber of a
 * broadcast): each source delivers to its own, in batches (NotificationBatches). False when a cancel
 * stopped it, which stops the fan-out.
 */
export interface RecipientSource {
  deliver(run: FanOutRun): Promise<boolean>;
}
