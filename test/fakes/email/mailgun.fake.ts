import { randomUUID } from 'node:crypto';
import { basicCredentials } from '../vendor-auth';
import { FakeReply, FakeRequest, VendorFake, VendorOutcome } from '../vendor-fake';
import { addressOf, EMAIL_ADDRESS, parseMultipart } from './email-test-kit';

/** Mailgun: `POST /v3/{domain}/messages` (multipart) and `GET /v3/domains/{domain}`, Basic `api:key`. */
export class MailgunFake extends VendorFake {
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
    return this.deliver(request, { status: 200, body: { id: `<${randomUUID()}@${this.domain}>`, message: 'Queued. Thank you.' } });
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
