import { Channel, EnvironmentScope } from '@app/kernel';
import { toRanked } from '../domain/integration-validation';
import { PriorityChange, renumberPriorities } from '../domain/primary-rules';
import { IntegrationRepository } from '../ports/integration.repository.port';

/** Restores the channel's ranking invariant (`renumberPriorities`) in the store; answers what changed. */
export async function renumberChannel(integrations: IntegrationRepository, scope: EnvironmentScope, channel: Channel): Promise<PriorityChange[]> {
  const active = await integrations.findActive(scope, { channel });
  const changes = renumberPriorities(active.map(toRanked));
  await integrations.setPriorities(scope, changes);
  return changes;
}
