import { randomBytes } from 'node:crypto';
import { hasScheme } from '../vendor-auth';
import { FakeReply, FakeRequest, VendorFake, VendorOutcome } from '../vendor-fake';
import { token } from './chat-fake-kit';

const graphError = (status: number, code: number, message: string, extra: Record<string, unknown> = {}) => ({
  status,
  body: { error: { message, type: 'OAuthException', code, ...extra, fbtrace_id: token(23) } },
});

/**
 * WhatsApp Cloud API (Graph): `POST /{version}/{phone-number-id}/messages` and `GET
 * /{version}/{phone-number-id}`, Bearer access token. Checks the version segment, the phone number
 * id, and the message as the Cloud API does: messaging_product, `to` as digits, a non-empty text
 * body or a template that exists in the requested language. Answers `{messaging_product,
 * contacts, messages:[{id:'wamid.…'}]}`; errors are `{error:{message, type, code, fbtrace_id}}`.
 */
export class WhatsappBusinessFake extends VendorFake {
  /** Versions that arrived, for tests that check the configured version is used. */
  readonly versions: string[] = [];

  constructor(
    readonly accessToken = `EAAG${token(60)}`,
    readonly phoneNumberId = '106540352242922',
    /** Approved templates and their languages. */
    readonly templates: Readonly<Record<string, string[]>> = { hello_world: ['en_US'], order_update: ['en_US', 'de'] },
  ) {
    super();
  }

  protected handle(request: FakeRequest): FakeReply {
    const refuse = (reply: ReturnType<typeof graphError>, reason: string) => this.refuse(reply.status, reason, reply.body);
    const match = /^\/(v\d+\.\d+)\/([^/]+)(\/messages)?$/.exec(request.path);
    if (!match) refuse(graphError(400, 2500, `Unknown path components: ${request.path}`), `no route ${request.path}`);
    const [, version, phoneNumberId, messages] = match!;
    this.versions.push(version);
    if (!request.header('authorization'))
      refuse(graphError(400, 2500, 'An active access token must be used to query information about the current user.'), 'no token');
    if (!hasScheme(request, 'Bearer', this.accessToken))
      refuse(graphError(401, 190, 'Invalid OAuth access token - Cannot parse access token'), 'bad bearer token');
    if (phoneNumberId !== this.phoneNumberId) {
      refuse(
        graphError(
          400,
          100,
          `Unsupported ${request.method.toLowerCase()} request. Object with ID '${phoneNumberId}' does not exist, cannot be loaded due to missing permissions, or does not support this operation.`,
          { error_subcode: 33 },
        ),
        `unknown phone number id ${phoneNumberId}`,
      );
    }
    if (!messages) {
      if (request.method !== 'GET') refuse(graphError(400, 100, 'Unsupported request'), `method ${request.method}`);
      return {
        status: 200,
        body: {
          verified_name: 'Notify Test',
          code_verification_status: 'VERIFIED',
          display_phone_number: '+1 555-010-0100',
          quality_rating: 'GREEN',
          id: this.phoneNumberId,
        },
      };
    }
    if (request.method !== 'POST') refuse(graphError(400, 100, 'Unsupported request'), `method ${request.method}`);
    let body: any;
    try {
      body = request.header('content-type')?.startsWith('application/json') ? request.json() : undefined;
    } catch {
      body = undefined;
    }
    const invalid = (reason: string, message: string) => refuse(graphError(400, 100, `(#100) ${message}`), reason);
    if (!body) invalid('not JSON', 'Invalid parameter');
    if (body.messaging_product !== 'whatsapp') invalid('messaging_product', 'The parameter messaging_product is required.');
    if (body.recipient_type !== undefined && body.recipient_type !== 'individual')
      invalid('recipient_type', 'Param recipient_type must be one of {INDIVIDUAL, GROUP}');
    if (typeof body.to !== 'string' || !/^\d{7,15}$/.test(body.to)) invalid(`to ${body.to}`, 'Invalid parameter');
    const type = body.type ?? 'text';
    if (type === 'text') {
      if (typeof body.text?.body !== 'string' || body.text.body === '') invalid('no text body', "The parameter text['body'] is required.");
      if (body.text.body.length > 4096) invalid('text too long', "Param text['body'] must be at most 4096 characters long.");
    } else if (type === 'template') {
      if (typeof body.template?.name !== 'string' || typeof body.template?.language?.code !== 'string')
        invalid('template shape', "The parameter template['name'] is required.");
      const languages = this.templates[body.template.name];
      if (!languages?.includes(body.template.language.code)) {
        refuse(
          graphError(404, 132001, '(#132001) Template name does not exist in the translation', {
            error_data: { messaging_product: 'whatsapp', details: `template name (${body.template.name}) does not exist in ${body.template.language.code}` },
          }),
          `unknown template ${body.template.name}`,
        );
      }
    } else if (typeof body[type] !== 'object' || body[type] === null) {
      invalid(`no ${type} object`, `The parameter ${type} is required.`);
    }
    return this.deliver(request, {
      status: 200,
      body: {
        messaging_product: 'whatsapp',
        contacts: [{ input: body.to, wa_id: body.to }],
        messages: [{ id: `wamid.${randomBytes(30).toString('base64')}` }],
      },
    });
  }

  protected failure(outcome: VendorOutcome): FakeReply {
    switch (outcome) {
      case 'rate_limited':
        return graphError(400, 130429, '(#130429) Rate limit hit', {
          error_data: { messaging_product: 'whatsapp', details: 'Cloud API message throughput has been reached.' },
        });
      case 'unavailable':
        return graphError(500, 131000, 'Something went wrong', { error_data: { messaging_product: 'whatsapp', details: 'Something went wrong' } });
      case 'permanent':
        return graphError(400, 131009, '(#131009) Parameter value is not valid', {
          error_data: { messaging_product: 'whatsapp', details: 'Parameter value is not valid' },
        });
      case 'invalid_recipient':
        return graphError(400, 131026, 'Message undeliverable', { error_data: { messaging_product: 'whatsapp', details: 'Message undeliverable' } });
      case 'auth':
        return graphError(401, 190, 'Error validating access token: Session has expired.', { error_subcode: 463 });
    }
  }
}
