import { suppressionAddress } from '../../../domain/delivery-event';
import { DETAIL } from '../../../domain/execution-detail';
import { SuppressionRepository } from '../../../ports/suppression.repository.port';
import { StepContext } from '../step-context';
import { StepOutcome } from '../step-outcome';
import { ChannelSupport } from './channel-support';

/** Error id of a message not sent because its address is suppressed. */
export const SUPPRESSED_ERROR_ID = 'address_suppressed';

/**
 * An address a provider reported as hard-bounced or as having marked a message spam is not sent to
 * again (until the suppression is lifted): the step is skipped with a message and a detail saying why.
 * Returns undefined when the address is not suppressed.
 */
export async function skipSuppressed(
  context: StepContext,
  support: ChannelSupport,
  suppressions: SuppressionRepository,
  providerId: string,
  field: 'email' | 'phone',
  address: string,
): Promise<StepOutcome | undefined> {
  const suppression = await suppressions.find(context.scope, suppressionAddress(address));
  if (!suppression) return undefined;
  const why = `${suppression.reason === 'spam_report' ? 'a spam report' : 'a hard bounce'} reported by ${suppression.providerId} on ${suppression.createdAt.toISOString()}`;
  context.session.insertMessage(
    support.recorder.message(context, {
      id: context.job.id,
      providerId,
      rendered: { content: '' },
      status: 'warning',
      errorText: `The address is suppressed after ${why}`,
      errorId: SUPPRESSED_ERROR_ID,
      fields: { [field]: address },
    }),
  );
  support.recorder.detail(context, 'Failed', DETAIL.ADDRESS_SUPPRESSED, {
    source: 'Credentials',
    providerId,
    raw: {
      address,
      reason: suppression.reason,
      suppressedAt: suppression.createdAt.toISOString(),
      providerId: suppression.providerId,
      messageId: suppression.messageId,
    },
  });
  return { kind: 'skipped', providerId };
}
