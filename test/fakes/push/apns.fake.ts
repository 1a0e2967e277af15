import { generateKeyPairSync, KeyObject, randomUUID } from 'node:crypto';
import { verifyJwt } from '../vendor-auth';
import { FakeProtocol, FakeReply, FakeRequest, VendorFake, VendorOutcome } from '../vendor-fake';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const PUSH_TYPES = ['alert', 'background', 'voip', 'complication', 'fileprovider', 'mdm', 'location', 'liveactivity', 'pushtotalk'];

/**
 * APNs provider API over HTTP/2 + TLS (the test certificate): `POST /3/device/{token}` with a
 * token-based ES256 provider token, verified with the public half of this fake's P-256 key (kid,
 * iss, age under an hour), the topic, the push type and priority, the device token and the body,
 * answering 200 + `apns-id` or Apple's `{reason}` errors. Tokens in `unregistered` answer 410.
 */
export class ApnsFake extends VendorFake {
  protected override protocol: FakeProtocol = 'h2';
  readonly privateKeyPem: string;
  readonly publicKey: KeyObject;
  readonly unregistered = new Set<string>();
  /** Distinct provider tokens seen (Apple limits how often they change). */
  readonly providerTokens = new Set<string>();

  constructor(
    readonly teamId = 'TEAM123456',
    readonly keyId = 'KEY1234567',
    readonly topic = 'com.example.app',
  ) {
    super();
    const pair = generateKeyPairSync('ec', { namedCurve: 'prime256v1' });
    this.privateKeyPem = pair.privateKey.export({ type: 'pkcs8', format: 'pem' }) as string;
    this.publicKey = pair.publicKey;
  }

  /** The integration credentials for this fake. */
  credentials(): Record<string, unknown> {
    return { secretKey: this.privateKeyPem, apiKey: this.keyId, projectName: this.teamId, applicationId: this.topic, secure: true, baseUrl: this.origin };
  }

  override reset(): void {
    super.reset();
    this.unregistered.clear();
    this.providerTokens.clear();
  }

  protected handle(request: FakeRequest): FakeReply {
    const reason = (status: number, why: string, detail = why) => this.refuse(status, detail, { reason: why });
    const token = /^\/3\/device\/([^/]+)$/.exec(request.path)?.[1];
    if (request.method !== 'POST') reason(405, 'MethodNotAllowed');
    if (token === undefined) reason(404, 'BadPath');
    const authorization = request.header('authorization');
    if (!authorization) reason(403, 'MissingProviderToken');
    const jwt = verifyJwt(/^bearer (.+)$/.exec(authorization!)?.[1] ?? '', this.publicKey, 'ES256');
    if (typeof jwt === 'string') reason(403, 'InvalidProviderToken', `provider token: ${jwt}`);
    const { header, payload } = jwt as Exclude<typeof jwt, string>;
    if (header.kid !== this.keyId || payload.iss !== this.teamId) reason(403, 'InvalidProviderToken', `kid ${String(header.kid)} / iss ${String(payload.iss)}`);
    if (typeof payload.iat !== 'number' || payload.iat < Date.now() / 1000 - 3600) reason(403, 'ExpiredProviderToken');
    this.providerTokens.add(authorization!);
    const topic = request.header('apns-topic');
    if (!topic) reason(400, 'MissingTopic');
    if (topic !== this.topic) reason(400, 'DeviceTokenNotForTopic', `topic ${topic}`);
    const pushType = request.header('apns-push-type');
    if (pushType && !PUSH_TYPES.includes(pushType)) reason(400, 'InvalidPushType');
    const priority = request.header('apns-priority');
    if (priority && !['1', '5', '10'].includes(priority)) reason(400, 'BadPriority');
    if (pushType === 'background' && priority === '10') reason(400, 'BadPriority', 'background pushes must use priority 5');
    const expiration = request.header('apns-expiration');
    if (expiration && !/^\d+$/.test(expiration)) reason(400, 'BadExpirationDate');
    const collapseId = request.header('apns-collapse-id');
    if (collapseId && Buffer.byteLength(collapseId) > 64) reason(400, 'BadCollapseId');
    const apnsId = request.header('apns-id');
    if (apnsId && !UUID.test(apnsId)) reason(400, 'BadMessageId');
    if (!/^[0-9a-f]{64,200}$/i.test(token!)) reason(400, 'BadDeviceToken');
    if (request.body.length > 4096) reason(413, 'PayloadTooLarge');
    let body: any;
    try {
      body = request.json();
    } catch {
      reason(400, 'PayloadEmpty', 'body is not JSON');
    }
    if (!body || typeof body.aps !== 'object') reason(400, 'PayloadEmpty', 'no aps dictionary');
    if (this.unregistered.has(token!))
      return { status: 410, headers: { 'apns-id': apnsId ?? randomUUID() }, body: { reason: 'Unregistered', timestamp: Date.now() } };
    return this.deliver(request, { status: 200, headers: { 'apns-id': apnsId ?? randomUUID() } });
  }

  protected failure(outcome: VendorOutcome): FakeReply {
    switch (outcome) {
      case 'rate_limited':
        return { status: 429, body: { reason: 'TooManyRequests' } };
      case 'unavailable':
        return { status: 503, body: { reason: 'ServiceUnavailable' } };
      case 'permanent':
        return { status: 400, body: { reason: 'BadCollapseId' } };
      case 'invalid_recipient':
        return { status: 410, body: { reason: 'Unregistered', timestamp: Date.now() } };
      case 'auth':
        return { status: 403, body: { reason: 'ExpiredProviderToken' } };
    }
  }
}
