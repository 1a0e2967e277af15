import { SmsMessage } from '@app/delivery';
import { describeProviderContract, ProviderContract } from '../provider-contract';
import { FakeReply, FakeRequest, VendorFake } from '../vendor-fake';

/** The message every SMS contract case sends. */
export const SMS: SmsMessage = { id: 'msg-1', to: '+15551234567', content: 'Your code is 1234' };

export type SmsContract<F extends VendorFake> = ProviderContract<'sms', F>;

/** The shared contract (test/fakes/provider-contract.ts) for an SMS adapter, sending `SMS`. */
export function describeSmsContract<F extends VendorFake>(contract: SmsContract<F>): void {
  describeProviderContract('sms', SMS, contract);
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
export async function withCannedAnswer<T>(
  answer: FakeReply | ((request: FakeRequest) => FakeReply),
  use: (origin: string, fake: VendorFake) => Promise<T>,
): Promise<T> {
  const fake = await new CannedFake(typeof answer === 'function' ? answer : () => answer).start();
  try {
    return await use(fake.origin, fake);
  } finally {
    await fake.close();
  }
}
