import { VendorEventSource, VendorEventSources } from '@app/delivery';
import { BrevoEventSource } from './brevo.events';
import { InfobipEventSource } from './infobip.events';
import { MailgunEventSource } from './mailgun.events';
import { MailjetEventSource } from './mailjet.events';
import { MessageBirdEventSource } from './messagebird.events';
import { PlivoEventSource } from './plivo.events';
import { PostmarkEventSource } from './postmark.events';
import { SendGridEventSource } from './sendgrid.events';
import { SesEventSource } from './ses.events';
import { SevenEventSource } from './seven.events';
import { ResendEventSource } from './svix.events';
import { TelnyxEventSource } from './telnyx.events';
import { TwilioEventSource } from './twilio.events';
import { VonageEventSource } from './vonage.events';

/** Every vendor whose event webhook we verify and read, by provider id. */
export class VendorEventSourceRegistry implements VendorEventSources {
  private readonly byProvider = new Map<string, VendorEventSource>();

  constructor(
    sources: VendorEventSource[] = [
      new SendGridEventSource(),
      new MailgunEventSource(),
      new ResendEventSource(),
      new PostmarkEventSource(),
      new MailjetEventSource(),
      new BrevoEventSource(),
      new SesEventSource(),
      new TwilioEventSource(),
      new TelnyxEventSource(),
      new VonageEventSource(),
      new MessageBirdEventSource(),
      new PlivoEventSource(),
      new InfobipEventSource(),
      new SevenEventSource(),
    ],
  ) {
    for (const source of sources) for (const id of source.providerIds) this.byProvider.set(id, source);
  }

  get(providerId: string): VendorEventSource | undefined {
    return this.byProvider.get(providerId);
  }

  providerIds(): string[] {
    return [...this.byProvider.keys()].sort();
  }
}
