import { randomUUID } from 'node:crypto';
import PostalMime, { Email } from 'postal-mime';
import { hasValidSigV4 } from '../vendor-auth';
import { FakeReply, FakeRequest, VendorFake, VendorOutcome } from '../vendor-fake';
import { EMAIL_ADDRESS } from './email-test-kit';

const INVALID_TOKEN = 'The security token included in the request is invalid.';
const BAD_SIGNATURE =
  'The request signature we calculated does not match the signature you provided. Check your AWS Secret Access Key and signing method. Consult the service documentation for details.';

/**
 * Amazon SES v2 (REST-JSON): `POST /v2/email/outbound-emails` and `GET /v2/email/account`. Each
 * request's SigV4 signature is recomputed with the test secret (`hasValidSigV4`), as AWS does (unknown access key
 * → UnrecognizedClientException, wrong signature → InvalidSignatureException, both 403). Errors
 * carry `x-amzn-ErrorType` and `{message}`, as the SDK expects. The raw MIME is kept and can be
 * parsed with `rawEmail`.
 */
export class SesFake extends VendorFake {
  constructor(
    readonly accessKeyId = 'AKIDEXAMPLE',
    readonly secretAccessKey = 'wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY',
    readonly region = 'eu-west-1',
  ) {
    super();
  }

  /** The MIME message of an accepted send, parsed. */
  static async rawEmail(request: FakeRequest): Promise<{ raw: Buffer; parsed: Email }> {
    const raw = Buffer.from(request.json().Content.Raw.Data, 'base64');
    return { raw, parsed: await PostalMime.parse(raw) };
  }

  protected async handle(request: FakeRequest): Promise<FakeReply> {
    const signature = await hasValidSigV4(request, {
      accessKeyId: this.accessKeyId,
      secretAccessKey: this.secretAccessKey,
      region: this.region,
      service: 'ses',
    });
    if (signature !== true) {
      if (typeof signature === 'string' && signature.startsWith('access key '))
        this.refuse(403, 'SigV4: unknown access key', awsError('UnrecognizedClientException', INVALID_TOKEN).body);
      this.refuse(403, `SigV4: ${signature}`, awsError('InvalidSignatureException', BAD_SIGNATURE).body);
    }
    if (request.method === 'GET' && request.path === '/v2/email/account') {
      return {
        status: 200,
        body: {
          DedicatedIpAutoWarmupEnabled: false,
          EnforcementStatus: 'HEALTHY',
          ProductionAccessEnabled: true,
          SendQuota: { Max24HourSend: 50000, MaxSendRate: 14, SentLast24Hours: 0 },
          SendingEnabled: true,
        },
      };
    }
    const notFound = awsError('NotFoundException', `No route ${request.method} ${request.path}`);
    this.expect(request.method === 'POST' && request.path === '/v2/email/outbound-emails', 404, `no route ${request.method} ${request.path}`, notFound.body);
    const body = request.json();
    const badRequest = (message: string) => this.refuse(400, message, awsError('BadRequestException', message).body);
    const raw = body.Content?.Raw?.Data;
    if (typeof raw !== 'string' || !/^[A-Za-z0-9+/]+=*$/.test(raw)) badRequest('Content.Raw.Data must be base64');
    const mime = Buffer.from(raw, 'base64').toString('utf8');
    const headerBlock = mime.slice(0, mime.indexOf('\r\n\r\n'));
    if (!/^From: /im.test(headerBlock)) badRequest('Missing From header in the raw message');
    if (/^Bcc: /im.test(headerBlock)) badRequest('The raw message must not carry Bcc (it would reach every recipient)');
    if (body.FromEmailAddress !== undefined && !EMAIL_ADDRESS.test(body.FromEmailAddress)) badRequest(`Illegal address: ${body.FromEmailAddress}`);
    const destination = body.Destination ?? {};
    const recipients = [...(destination.ToAddresses ?? []), ...(destination.CcAddresses ?? []), ...(destination.BccAddresses ?? [])];
    if (recipients.length === 0) badRequest('Missing required field Destination');
    for (const address of recipients) if (!EMAIL_ADDRESS.test(address)) badRequest(`Illegal address: ${address}`);
    for (const tag of body.EmailTags ?? []) if (!/^[A-Za-z0-9_.@-]+$/.test(`${tag.Name}${tag.Value}`)) badRequest('Invalid tag name or value');
    return this.deliver(request, {
      status: 200,
      headers: { 'x-amzn-requestid': randomUUID() },
      body: { MessageId: `0102018${randomUUID().replace(/-/g, '')}-000000` },
    });
  }

  protected failure(outcome: VendorOutcome): FakeReply {
    switch (outcome) {
      case 'rate_limited':
        return awsError('TooManyRequestsException', 'Too many requests have been made to the operation.', 429);
      case 'unavailable':
        return awsError('InternalFailure', 'The request processing has failed because of an unknown error, exception or failure.', 500);
      case 'auth':
        return awsError('UnrecognizedClientException', INVALID_TOKEN, 403);
      case 'invalid_recipient':
        return awsError(
          'MessageRejected',
          `Email address is not verified. The following identities failed the check in region ${this.region.toUpperCase()}: ada@example.com`,
          400,
        );
      case 'permanent':
        return awsError(
          'MessageRejected',
          `Email address is not verified. The following identities failed the check in region ${this.region.toUpperCase()}: no-reply@example.com`,
          400,
        );
    }
  }
}

/** An AWS REST-JSON error: the type in `x-amzn-ErrorType` and, for refusals (which carry no headers), `__type`. */
function awsError(type: string, message: string, status = 400): FakeReply {
  return { status, headers: { 'x-amzn-errortype': type, 'x-amzn-requestid': randomUUID() }, body: { __type: type, message } };
}
