import { ChannelMessages, ChannelProvider, DeliveryChannel, ProviderCredentials } from '@app/delivery';
import { createProviderRuntime, CredentialSchema, ProviderRuntime, requiredKeys } from '@app/providers';
import { findProvider } from '../../libs/integrations/src/domain/provider-catalogue';
import { providerFailure, sendContext, testRuntime } from './provider-test-kit';
import { VendorFake, VendorOutcome } from './vendor-fake';

export interface ProviderContract<C extends DeliveryChannel, F extends VendorFake> {
  providerId: string;
  schema: CredentialSchema;
  fake: F;
  createProvider(runtime: ProviderRuntime): ChannelProvider<C>;
  /** Credentials the fake accepts (baseUrl pointing at it). */
  credentials(): ProviderCredentials;
  /** Credentials the fake refuses as the vendor would, and the refusal reason the fake records. */
  wrongCredentials: { credentials(): ProviderCredentials; refusal: string };
  /** What the adapter makes of each scripted vendor failure (matched with toMatchObject). */
  outcomes: Record<VendorOutcome, Record<string, unknown>>;
  /** The check's verdict with the wrong credentials; `false` when the vendor offers no check. */
  check: { failure: string | RegExp } | false;
}

/**
 * The cases every HTTP adapter of a channel shares, against its vendor fake: the schema matches
 * the catalogue, scripted failures map to the right kinds, refused credentials are `auth` (no
 * secret echoed), missing credentials fail before any request, the vendor origin passes the SSRF
 * guard, the live check passes and fails. Each spec adds the exact request its vendor expects.
 */
export function describeProviderContract<C extends DeliveryChannel, F extends VendorFake>(
  channel: C,
  message: ChannelMessages[C],
  contract: ProviderContract<C, F>,
): void {
  const { fake } = contract;
  const provider = contract.createProvider(testRuntime());

  describe(`${contract.providerId}: the shared ${channel} contract`, () => {
    beforeEach(() => fake.reset());

    it('declares the credentials the catalogue requires', () => {
      expect(provider.id).toBe(contract.providerId);
      expect(provider.channel).toBe(channel);
      expect(requiredKeys(contract.schema).sort()).toEqual([...(findProvider(contract.providerId)?.requiredCredentials ?? [])].sort());
    });

    it.each(Object.entries(contract.outcomes))('a scripted %s failure is classified as the vendor means it', async (outcome, expected) => {
      fake.failNext(outcome as VendorOutcome);
      const error = await providerFailure(provider.send(message, contract.credentials(), sendContext()));
      expect(error).toMatchObject(expected);
      expect(fake.accepted).toHaveLength(0);
    });

    it('credentials the vendor refuses are an auth failure, and no secret is echoed', async () => {
      const credentials = contract.wrongCredentials.credentials();
      const error = await providerFailure(provider.send(message, credentials, sendContext()));
      expect(error.kind).toBe('auth');
      expect(fake.refusals.map((refusal) => refusal.reason)).toEqual([contract.wrongCredentials.refusal]);
      for (const key of ['apiKey', 'secretKey', 'password', 'token', 'accessKey']) {
        const secret = credentials[key];
        if (typeof secret === 'string') expect(`${error.message} ${JSON.stringify(error.raw)}`).not.toContain(secret);
      }
    });

    it('missing credentials fail before any request, naming them', async () => {
      const required = findProvider(contract.providerId)?.requiredCredentials ?? [];
      const error = await providerFailure(provider.send(message, {}, sendContext()));
      expect(error.kind).toBe('invalid_request');
      expect(error.message).toBe(`The ${contract.providerId} integration needs ${required.map((key) => `credentials.${key}`).join(', ')}`);
      expect(fake.requests).toHaveLength(0);
    });

    it('the vendor origin passes the SSRF guard: loopback is refused unless the deployment allows it', async () => {
      const strict = contract.createProvider(createProviderRuntime({ allowPrivateNetworkTargets: false }));
      const error = await providerFailure(strict.send(message, contract.credentials(), sendContext()));
      expect(error.kind).toBe('invalid_request');
      expect(error.message).toContain('non-public address 127.0.0.1');
      expect(fake.requests).toHaveLength(0);
    });

    const { check } = contract;
    if (check) {
      it("check: good credentials pass, wrong ones fail with the vendor's words, nothing is sent", async () => {
        await expect(provider.check!(contract.credentials(), AbortSignal.timeout(5_000))).resolves.toEqual({ ok: true });
        const verdict = await provider.check!(contract.wrongCredentials.credentials(), AbortSignal.timeout(5_000));
        expect(verdict.ok).toBe(false);
        if (typeof check.failure === 'string') expect(verdict.message).toBe(check.failure);
        else expect(verdict.message).toMatch(check.failure);
        expect(fake.accepted).toHaveLength(0);
      });
    } else {
      it('offers no check (the vendor has no side-effect-free call)', () => {
        expect(provider.check).toBeUndefined();
      });
    }
  });
}
