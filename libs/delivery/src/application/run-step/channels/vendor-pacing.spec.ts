import { randomUUID } from 'node:crypto';
import { Integration } from '@app/integrations';
import { DeferredJobError } from '@app/kernel';
import { FlexibleVendorPace } from '@app/redis';
import { ProviderError } from '../../../ports/channel-provider.port';
import { VendorHeldError, VendorPacing } from './vendor-pacing';

const slack = (): Integration =>
  ({
    id: `id-${randomUUID()}`,
    identifier: 'slack-team',
    providerId: 'slack',
    channel: 'chat',
    credentials: {},
    fallbacks: [],
    conditions: [],
  }) as unknown as Integration;
const hook = (name: string) => `https://hooks.slack.com/services/T000/B000/${name}`;

describe('VendorPacing: a provider that limits each address (Slack)', () => {
  const note = jest.fn();
  const pacing = () => new VendorPacing(new FlexibleVendorPace(undefined, { circuitFailures: 3, circuitOpenMs: 60_000 }));
  const ok = () => Promise.resolve('sent');

  it('paces each webhook URL at its one message a second, not the integration: another subscriber’s webhook is not held', async () => {
    const paced = pacing();
    const integration = slack();
    await expect(paced.call(integration, ok, note, hook('alice'))).resolves.toBe('sent');
    await expect(paced.call(integration, ok, note, hook('bob'))).resolves.toBe('sent');
    await expect(paced.call(integration, ok, note, hook('alice'))).rejects.toBeInstanceOf(DeferredJobError);
    // Without an address (nothing to key it by) only the integration's own limits apply: none for Slack.
    await expect(paced.call(integration, ok, note)).resolves.toBe('sent');
  });

  it("a webhook's 429 pauses that webhook only, and its delivery waits rather than moving to another integration", async () => {
    const paced = pacing();
    const integration = slack();
    const refused = paced.call(
      integration,
      () => Promise.reject(new ProviderError('rate_limited', 'Too Many Requests', { retryAfterMs: 5_000 })),
      note,
      hook('carol'),
    );
    await expect(refused).rejects.toBeInstanceOf(DeferredJobError);
    await expect(refused).rejects.not.toBeInstanceOf(VendorHeldError);
    expect(note).toHaveBeenCalledWith('Warning', expect.stringMatching(/^The provider asked to slow down/), expect.objectContaining({ scope: 'address' }));
    await expect(paced.call(integration, ok, note, hook('dave'))).resolves.toBe('sent');
    await expect(paced.call(integration, ok, note, hook('carol'))).rejects.toBeInstanceOf(DeferredJobError);
  });
});
