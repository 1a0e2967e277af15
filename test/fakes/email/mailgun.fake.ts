import { randomUUID } from 'node:crypto';
import { basicCredentials } from '../vendor-auth';
import { FakeReply, FakeRequest, VendorFake, VendorOutcome } from '../vendor-fake';
import { addressOf, EMAIL_ADDRESS, parseMultipart } from './email-test-kit';

/** Recipients Mailgun takes in one batch send. */
const MAX_RECIPIENTS = 1000;

/** One message Mailgun makes of an accepted send: its recipient and its `v:` variables, recipient variables filled in. */
export interface MailgunDelivery {
  to: string;
  subject: string;
  variables: Record<string, string>;
}

/**
 * Mailgun: `POST /v3/{domain}/messages` (multipart) and `GET /v3/domains/{domain}`, Basic `api:key`.
 * A batch send: several `to` with `recipient-variables` (a JSON object keyed by each `to` address, at
 * most 1,000 recipients), from which Mailgun makes one message per recipient, `%recipient.x%`
 * filled in (`deliveries`). Several `to` without recipient variables make one message to all.
 */
export class MailgunFake extends VendorFake {
  /** The messages accepted sends make (a batch send: one per recipient). */
  readonly deliveries: MailgunDelivery[] = [];

  constructor(
    readonly apiKey = 'key-test',
    readonly domain = 'mg.example.com',
  ) {
    super();
  }

  protected handle(request: FakeRequest): FakeReply {
    const login = basicCredentials(request);
    // Mailgun answers a wrong key with a bare text body.
    if (!login || login[0] !== 'api' || login[1] !== this.apiKey) this.refuse(401, 'bad basic login', 'Forbidden');
    if (request.method === 'GET' && request.path === `/v3/domains/${this.domain}`) {
      return { status: 200, body: { domain: { name: this.domain, state: 'active' }, receiving_dns_records: [], sending_dns_records: [] } };
    }
    this.expect(request.method === 'POST' && request.path === `/v3/${this.domain}/messages`, 404, `no route ${request.method} ${request.path}`, {
      message: 'Domain not found',
    });
    const parts = parseMultipart(request);
    if (!parts) this.refuse(400, 'not multipart/form-data', { message: 'from parameter is missing' });
    const values = (name: string) => parts.filter((part) => part.name === name && part.filename === undefined).map((part) => part.value);
    const [from] = values('from');
    if (!addressOf(from)) this.refuse(400, 'bad from', { message: "'from' parameter is not a valid address. please check documentation" });
    if (values('to').length === 0) this.refuse(400, 'no to', { message: "'to' parameter is missing" });
    for (const kind of ['to', 'cc', 'bcc']) {
      if (!values(kind).every((address) => EMAIL_ADDRESS.test(address)))
        this.refuse(400, `bad ${kind}`, { message: `'${kind}' parameter is not a valid address. please check documentation` });
    }
    if (values('subject').length !== 1) this.refuse(400, 'no subject', { message: "'subject' parameter is missing" });
    if (values('html').length === 0 && values('text').length === 0)
      this.refuse(400, 'no body', { message: "Need at least one of 'text' or 'html' parameters specified" });
    for (const part of parts) {
      if ((part.name === 'attachment' || part.name === 'inline') && !part.filename)
        this.refuse(400, `${part.name} without a file`, { message: `'${part.name}' parameter is not a file` });
    }
    const recipients = [...values('to'), ...values('cc'), ...values('bcc')];
    if (recipients.length > MAX_RECIPIENTS) this.refuse(400, `${recipients.length} recipients`, { message: 'Too many recipients' });
    const [variablesJson, ...more] = values('recipient-variables');
    let recipientVariables: Record<string, Record<string, unknown>> | undefined;
    if (variablesJson !== undefined) {
      try {
        recipientVariables = JSON.parse(variablesJson);
      } catch {
        recipientVariables = undefined;
      }
      if (more.length || !recipientVariables || typeof recipientVariables !== 'object' || Array.isArray(recipientVariables))
        this.refuse(400, 'bad recipient-variables', { message: "'recipient-variables' parameter is not a valid JSON" });
    }
    const id = `<${randomUUID()}@${this.domain}>`;
    const reply = this.deliver(request, { status: 200, body: { id, message: 'Queued. Thank you.' } });
    if (this.accepted.includes(request)) {
      const vars = parts.filter((part) => part.name.startsWith('v:')).map((part) => [part.name.slice(2), part.value]);
      const fill = (text: string, to: string) => text.replace(/%recipient\.([\w-]+)%/g, (_, key) => String(recipientVariables?.[to]?.[key] ?? ''));
      const split = recipientVariables ? values('to').map((to) => [to]) : [values('to')];
      for (const to of split) {
        this.deliveries.push({
          to: to.join(', '),
          subject: fill(values('subject')[0], to[0]),
          variables: Object.fromEntries(vars.map(([name, value]) => [name, fill(value, to[0])])),
        });
      }
    }
    return reply;
  }

  override reset(): void {
    super.reset();
    this.deliveries.length = 0;
  }

  protected failure(outcome: VendorOutcome): FakeReply {
    switch (outcome) {
      case 'rate_limited':
        return { status: 429, headers: { 'retry-after': '3' }, body: { message: 'Too many requests' } };
      case 'unavailable':
        return { status: 503, body: { message: 'Service temporarily unavailable' } };
      case 'auth':
        return { status: 401, headers: { 'content-type': 'text/plain' }, body: 'Forbidden' };
      case 'invalid_recipient':
        return { status: 400, body: { message: "'to' parameter is not a valid address. please check documentation" } };
      case 'permanent':
        return {
          status: 403,
          body: {
            message: `Domain ${this.domain} is not allowed to send: Free accounts are for test purposes only. Please upgrade or add the address to authorized recipients in Account Settings.`,
          },
        };
    }
  }
}
