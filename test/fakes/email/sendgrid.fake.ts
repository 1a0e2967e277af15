import { randomUUID } from 'node:crypto';
import { hasScheme } from '../vendor-auth';
import { FakeReply, FakeRequest, VendorFake, VendorOutcome } from '../vendor-fake';

const EMAIL = /^[^\s@<>]+@[^\s@<>]+\.[^\s@<>]+$/;

/** SendGrid v3: `POST /v3/mail/send` and `GET /v3/scopes`, Bearer key, checks as SendGrid's validation does. */
export class SendgridFake extends VendorFake {
  constructor(readonly apiKey = 'SG.test-key') {
    super();
  }

  protected handle(request: FakeRequest): FakeReply {
    const unauthorized = { errors: [{ field: null, message: 'The provided authorization grant is invalid, expired, or revoked' }] };
    this.expect(hasScheme(request, 'Bearer', this.apiKey), 401, 'bad bearer key', unauthorized);
    if (request.method === 'GET' && request.path === '/v3/scopes') return { status: 200, body: { scopes: ['mail.send', 'user.profile.read'] } };
    this.expect(request.method === 'POST' && request.path === '/v3/mail/send', 404, `no route ${request.method} ${request.path}`);
    this.expect(request.header('content-type')?.startsWith('application/json'), 415, 'not JSON');
    const body = request.json();
    const error = (field: string, message: string) => this.refuse(400, `${field}: ${message}`, { errors: [{ field, message }] });
    if (!Array.isArray(body.personalizations) || body.personalizations.length === 0) error('personalizations', 'The personalizations field is required');
    body.personalizations.forEach((p: any, i: number) => {
      if (!Array.isArray(p.to) || p.to.length === 0) error(`personalizations.${i}.to`, 'The to array is required');
      for (const kind of ['to', 'cc', 'bcc']) {
        (p[kind] ?? []).forEach(
          (r: any, j: number) => EMAIL.test(r.email) || error(`personalizations.${i}.${kind}.${j}.email`, 'Does not contain a valid address.'),
        );
      }
    });
    if (!body.from || !EMAIL.test(body.from.email)) error('from.email', 'The from email does not contain a valid address.');
    if (typeof body.subject !== 'string' || body.subject === '') error('subject', 'The subject is required');
    if (!Array.isArray(body.content) || body.content.length === 0) error('content', 'The content value must be a string at least one character in length.');
    if (body.content.length > 1 && body.content[0].type !== 'text/plain') error('content', 'text/plain must come first');
    for (const attachment of body.attachments ?? []) {
      if (!attachment.filename || !/^[A-Za-z0-9+/]+=*$/.test(attachment.content ?? ''))
        error('attachments.content', 'The attachment content must be base64 encoded.');
    }
    return this.deliver(request, { status: 202, headers: { 'x-message-id': randomUUID().replace(/-/g, '').slice(0, 22) } });
  }

  protected failure(outcome: VendorOutcome): FakeReply {
    switch (outcome) {
      case 'rate_limited':
        return {
          status: 429,
          headers: { 'x-ratelimit-reset': String(Math.ceil(Date.now() / 1000) + 2) },
          body: { errors: [{ field: null, message: 'too many requests' }] },
        };
      case 'unavailable':
        return { status: 503, body: { errors: [{ field: null, message: 'Service Unavailable' }] } };
      case 'auth':
        return { status: 401, body: { errors: [{ field: null, message: 'The provided authorization grant is invalid, expired, or revoked' }] } };
      case 'invalid_recipient':
        return { status: 400, body: { errors: [{ field: 'personalizations.0.to.0.email', message: 'Does not contain a valid address.' }] } };
      case 'permanent':
        return { status: 403, body: { errors: [{ field: 'from', message: 'The from address does not match a verified Sender Identity.' }] } };
    }
  }
}
