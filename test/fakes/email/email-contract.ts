import { EmailMessage } from '@app/delivery';
import { describeProviderContract, ProviderContract } from '../provider-contract';
import { VendorFake } from '../vendor-fake';
import { sampleEmail } from './email-test-kit';

export interface EmailContract<F extends VendorFake> extends ProviderContract<'email', F> {
  /** The message the cases send (default: the shared sample). */
  message?: EmailMessage;
}

/** The shared contract (test/fakes/provider-contract.ts) for an HTTP email adapter. */
export function describeEmailContract<F extends VendorFake>(contract: EmailContract<F>): void {
  describeProviderContract('email', contract.message ?? sampleEmail(), contract);
}
