import { ChannelProvider, ProviderCredentials, SmsMessage } from '@app/delivery';
import { createProviderRuntime, CredentialSchema, ProviderRuntime, requiredKeys } from '@app/providers';
import { findProvider } from '../../../libs/integrations/src/domain/provider-catalogue';
import { providerFailure, sendContext, testRuntime } from '../provider-test-kit';
import { FakeReply, FakeRequest, VendorFake, VendorOutcome } from '../vendor-fake';

/** The message every SMS contract case sends. */
export const SMS: SmsMessage = { id: 'msg-1', to: '+15551234567', content: 'Your code is 1234' };

export interface SmsContract<F extends VendorFake> {
  providerId: string;
  schema: CredentialSchema;
  fake: F;
  createProvider(runtime: ProviderRuntime): ChannelProvider<'sms'>;
  /** Credentials the fake accepts. */
  credentials(): ProviderCredentials;
  /** Credentials the fake refuses as the vendor would, and the refusal reason the fake records. */
  wrongCredentials: { credentials(): ProviderCredentials; refusal: string };
  /** What the adapter makes of each scripted vendor failure (matched with toMatchObject). */
  outcomes: Record<VendorOutcome, Record<string, unknown>>;
  /** The check's verdicts with good and wrong credentials; `false` when the vendor offers none. */
  check: { failure: string | RegExp } | false;
}

/**
 * The cases every SMS adapter shares, against its vendor fake: scripted failures map to the
 * right kinds, a refused credential is `auth`, missing credentials fail before any request, the
 * vendor origin passes the SSRF guard, and the live check passes and fails.
 */
export function describeSmsContract<F extends VendorFake>(contract: SmsContract<F>): void {
  const { fake } = contract;
  const provider = contract.createProvider(testRuntime());

  describe(`${contract.providerId}: the shared SMS contract`, () => {
    it('declares the credentials the catalogue requires', () => {
      expect(provider.id).toBe(contract.providerId);
      expect(provider.channel).toBe('sms');
      expect(requiredKeys(contract.schema).sort()).toEqual([...(findProvider(contract.providerId)?.requiredCredentials ?? [])].sort());
    });

    it.each(Object.entries(contract.outcomes))('a scripted %s failure is classified as the vendor means it', async (outcome, expected) => {
      fake.failNext(outcome as VendorOutcome);
      const error = await providerFailure(provider.send(SMS, contract.credentials(), sendContext()));
      expect(error).toMatchObject(expected);
      expect(fake.accepted).toHaveLength(0);
    });

    it('credentials the vendor refuses are an auth failure', async () => {
      const error = await providerFailure(provider.send(SMS, contract.wrongCredentials.credentials(), sendContext()));
      expect(error.kind).toBe('auth');
      expect(fake.refusals.map((refusal) => refusal.reason)).toEqual([contract.wrongCredentials.refusal]);
    });

    it('missing credentials fail before any request, naming them', async () => {
      const required = findProvider(contract.providerId)?.requiredCredentials ?? [];
      const error = await providerFailure(provider.send(SMS, {}, sendContext()));
      expect(error.kind).toBe('invalid_request');
      expect(error.message).toBe(`The ${contract.providerId} integration needs ${required.map((key) => `credentials.${key}`).join(', ')}`);
      expect(fake.requests).toHaveLength(0);
    });

    it('the vendor origin passes the SSRF guard: loopback is refused unless the deployment allows it', async () => {
      const strict = contract.createProvider(createProviderRuntime({ allowPrivateNetworkTargets: false }));
      const error = await providerFailure(strict.send(SMS, contract.credentials(), sendContext()));
      expect(error.kind).toBe('invalid_request');
      expect(error.message).toContain('non-public address 127.0.0.1');
      expect(fake.requests).toHaveLength(0);
    });

    const { check } = contract;
    if (check) {
      it("check: good credentials pass, wrong ones fail with the vendor's words", async () => {
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

class CannedFake extends VendorFake {
  constructor(private readonly answer: (request: FakeRequest) => FakeReply) {
    super();
  }

  protected handle(request: FakeRequest): FakeReply {
    this.accepted.push(request);
    return this.answer(request);
  }

  protected failure(): FakeReply {
    throw new Error('a canned fake scripts no failures');
  }
}

/** Runs `use` against a throwaway server that gives every request the same answer (vendor oddities). */
export async function withCannedAnswer<T>(answer: FakeReply | ((request: FakeRequest) => FakeReply), use: (origin: string, fake: VendorFake) => Promise<T>): Promise<T> {
  const fake = await new CannedFake(typeof answer === 'function' ? answer : () => answer).start();
  try {
    return await use(fake.origin, fake);
  } finally {
    await fake.close();
  }
}
