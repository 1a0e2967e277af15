import { Channel, Clock, EnvironmentScope } from '@app/kernel';
import { IntegrationUpdateConflictError } from '../domain/errors';
import { toRanked } from '../domain/integration-validation';
import { RankedIntegration, RankingEvent, applyRanking, rankChannel } from '../domain/primary-rules';
import { IntegrationRepository } from '../ports/integration.repository.port';

/** Rankings written against a channel that others keep changing, before the caller is told to retry. */
const MAX_RANKING_ATTEMPTS = 20;

/**
 * Ranks a channel's active integrations in the store after `event` (rankChannel): reads them, and
 * writes the changes only if the channel is still as read, reading again when another request
 * changed it meanwhile. Answers the channel's ranking as written. `id` names the integration the
 * request is about, for the conflict error.
 */
export async function rankChannelInStore(
  integrations: IntegrationRepository,
  clock: Clock,
  scope: EnvironmentScope,
  channel: Channel,
  event: RankingEvent,
  id: string,
): Promise<RankedIntegration[]> {
  for (let attempt = 0; attempt < MAX_RANKING_ATTEMPTS; attempt++) {
    const active = (await integrations.findActive(scope, { channel })).map(toRanked);
    const changes = rankChannel(active, event, clock.now());
    if (!changes.length || (await integrations.rank(scope, channel, active, changes)) === 'ranked') return applyRanking(active, changes);
  }
  throw new IntegrationUpdateConflictError(id);
}
