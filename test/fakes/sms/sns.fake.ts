import { randomUUID } from 'node:crypto';
import { hasValidSigV4 } from '../vendor-auth';
import { FakeReply, FakeRequest, VendorFake, VendorOutcome } from '../vendor-fake';
import { E164 } from './sms-fake-kit';

const NAMESPACE = 'http://sns.amazonaws.com/doc/2010-03-31/';

const xml = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

function errorResponse(status: number, type: 'Sender' | 'Receiver', code: string, message: string): FakeReply {
  return {
    status,
    headers: { 'content-type': 'text/xml' },
    body: `<ErrorResponse xmlns="${NAMESPACE}"><Error><Type>${type}</Type><Code>${code}</Code><Message>${xml(message)}</Message></Error><RequestId>${randomUUID()}</RequestId></ErrorResponse>`,
  };
}

function success(action: string, result: string): FakeReply {
  return {
    status: 200,
    headers: { 'content-type': 'text/xml' },
    body: `<${action}Response xmlns="${NAMESPACE}"><${action}Result>${result}</${action}Result><ResponseMetadata><RequestId>${randomUUID()}</RequestId></ResponseMetadata></${action}Response>`,
  };
}

const INVALID_TOKEN = 'The security token included in the request is invalid.';
const BAD_SIGNATURE = 'The request signature we calculated does not match the signature you provided. Check your AWS Secret Access Key and signing method.';

/**
 * Amazon SNS over the AWS Query protocol: form `Action=Publish&Version=2010-03-31&PhoneNumber=…`
 * answered with a `PublishResponse` XML, `GetSMSAttributes`, and `ErrorResponse` XML for errors.
 * Every request's SigV4 signature is recomputed with the known secret (`hasValidSigV4`), as AWS
 * does (unknown access key → InvalidClientTokenId, wrong signature → SignatureDoesNotMatch, both 403).
 */
export class SnsFake extends VendorFake {
  /** Topic ARN by the subscription token a SubscriptionConfirmation carried. */
  private readonly pendingSubscriptions = new Map<string, string>();
  /** Subscriptions confirmed through their SubscribeURL. */
  readonly confirmedSubscriptions: { topicArn: string; token: string }[] = [];

  constructor(
    readonly accessKeyId = 'AKIAFAKESNSKEY000001',
    readonly secretAccessKey = 'fake-sns-secret-access-key',
    readonly region = 'eu-west-1',
  ) {
    super();
  }

  /**
   * The SubscribeURL SNS puts in a SubscriptionConfirmation for a topic: `GET /?Action=ConfirmSubscription&TopicArn=…&Token=…`
   * on this fake (unsigned, as SNS serves it: the token is the credential).
   */
  subscribeUrl(topicArn: string): { url: string; token: string } {
    const token = randomUUID().replace(/-/g, '').repeat(4);
    this.pendingSubscriptions.set(token, topicArn);
    return { url: `${this.origin}/?${new URLSearchParams({ Action: 'ConfirmSubscription', TopicArn: topicArn, Token: token }).toString()}`, token };
  }

  protected async handle(request: FakeRequest): Promise<FakeReply> {
    if (request.method === 'GET' && request.query.get('Action') === 'ConfirmSubscription') return this.confirmSubscription(request);
    const verdict = await hasValidSigV4(request, { accessKeyId: this.accessKeyId, secretAccessKey: this.secretAccessKey, region: this.region, service: 'sns' });
    if (verdict !== true) {
      if (typeof verdict === 'string' && verdict.startsWith('access key '))
        this.refuse(403, `SigV4: ${verdict}`, errorResponse(403, 'Sender', 'InvalidClientTokenId', INVALID_TOKEN).body);
      this.refuse(403, `SigV4: ${verdict}`, errorResponse(403, 'Sender', 'SignatureDoesNotMatch', BAD_SIGNATURE).body);
    }
    this.expect(request.method === 'POST' && request.path === '/', 404, `no route ${request.method} ${request.path}`);
    this.expect(request.header('content-type')?.startsWith('application/x-www-form-urlencoded'), 400, 'not a form');
    const form = request.form();
    this.expect(
      form.get('Version') === '2010-03-31',
      400,
      `version ${form.get('Version')}`,
      errorResponse(400, 'Sender', 'InvalidParameterValue', 'Invalid Version').body,
    );
    const action = form.get('Action');
    if (action === 'GetSMSAttributes') {
      return success(
        'GetSMSAttributes',
        '<attributes><entry><key>DefaultSMSType</key><value>Transactional</value></entry><entry><key>MonthlySpendLimit</key><value>1</value></entry></attributes>',
      );
    }
    this.expect(
      action === 'Publish',
      400,
      `action ${action}`,
      errorResponse(400, 'Sender', 'InvalidAction', `The action ${action} is not valid for this web service.`).body,
    );
    const phone = form.get('PhoneNumber') ?? '';
    this.expect(
      E164.test(phone),
      400,
      `bad PhoneNumber ${phone}`,
      errorResponse(400, 'Sender', 'InvalidParameter', `Invalid parameter: PhoneNumber Reason: ${phone} is not valid to publish to`).body,
    );
    this.expect(form.get('Message'), 400, 'empty message', errorResponse(400, 'Sender', 'InvalidParameter', 'Invalid parameter: Empty message').body);
    return this.deliver(request, success('Publish', `<MessageId>${randomUUID()}</MessageId>`));
  }

  private confirmSubscription(request: FakeRequest): FakeReply {
    const token = request.query.get('Token') ?? '';
    const topicArn = this.pendingSubscriptions.get(token);
    this.expect(
      topicArn !== undefined && topicArn === request.query.get('TopicArn'),
      400,
      'unknown subscription token',
      errorResponse(400, 'Sender', 'InvalidParameter', 'Invalid token').body,
    );
    this.confirmedSubscriptions.push({ topicArn: topicArn!, token });
    return this.deliver(request, success('ConfirmSubscription', `<SubscriptionArn>${xml(topicArn!)}:${randomUUID()}</SubscriptionArn>`));
  }

  protected failure(outcome: VendorOutcome): FakeReply {
    switch (outcome) {
      case 'rate_limited':
        return errorResponse(400, 'Sender', 'Throttling', 'Rate exceeded');
      case 'unavailable':
        return errorResponse(500, 'Receiver', 'InternalError', 'We encountered an internal error. Please try again.');
      case 'auth':
        return errorResponse(403, 'Sender', 'InvalidClientTokenId', INVALID_TOKEN);
      case 'invalid_recipient':
        return errorResponse(400, 'Sender', 'InvalidParameter', 'Invalid parameter: PhoneNumber Reason: +15551234567 is not valid to publish to');
      case 'permanent':
        return errorResponse(400, 'Sender', 'InvalidParameter', 'Invalid parameter: Message too long');
    }
  }

  /** The attributes of one accepted Publish (`MessageAttributes.entry.N.*`) by name. */
  static messageAttributes(request: FakeRequest): Record<string, string> {
    const form = request.form();
    const attributes: Record<string, string> = {};
    for (let n = 1; form.has(`MessageAttributes.entry.${n}.Name`); n++) {
      attributes[form.get(`MessageAttributes.entry.${n}.Name`)!] = form.get(`MessageAttributes.entry.${n}.Value.StringValue`) ?? '';
    }
    return attributes;
  }
}
