import { generateKeyPairSync, KeyObject, randomBytes } from 'node:crypto';
import { verifyJwt } from '../vendor-auth';
import { FakeReply, FakeRequest, VendorFake, VendorOutcome } from '../vendor-fake';

const SCOPE = 'https://www.googleapis.com/auth/firebase.messaging';
const FCM_ERROR = 'type.googleapis.com/google.firebase.fcm.v1.FcmError';
const BAD_REQUEST = 'type.googleapis.com/google.rpc.BadRequest';

/**
 * Google's OAuth token endpoint and the FCM HTTP v1 send endpoint, on one origin.
 *
 *   POST /token                              — JWT bearer grant: verifies the RS256 assertion with
 *                                              the public half of this fake's key (iss, scope, aud,
 *                                              iat/exp ≤ 1 h) and issues an access token
 *   POST /v1/projects/{project}/messages:send — Bearer must be an issued, unrevoked token; checks the
 *                                              project and the v1 message shape; answers `{name}`
 *
 * `serviceAccount()` is the JSON key an integration holds (its token_uri points here).
 * Device tokens in `unregistered` answer UNREGISTERED (404); tokens that do not look like FCM
 * registration tokens answer INVALID_ARGUMENT (400), as FCM does.
 */
export class FcmFake extends VendorFake {
  readonly privateKey: KeyObject;
  readonly publicKey: KeyObject;
  readonly unregistered = new Set<string>();
  /** Successful token exchanges. */
  tokenExchanges = 0;
  private readonly issued = new Set<string>();

  constructor(
    readonly projectId = 'demo-project',
    readonly clientEmail = 'notify@demo-project.iam.gserviceaccount.com',
  ) {
    super();
    const pair = generateKeyPairSync('rsa', { modulusLength: 2048 });
    this.privateKey = pair.privateKey;
    this.publicKey = pair.publicKey;
  }

  get tokenUri(): string {
    return `${this.origin}/token`;
  }

  /** The service account JSON key (as Firebase's console downloads it) for this fake. */
  serviceAccount(overrides: Record<string, unknown> = {}): string {
    return JSON.stringify({
      type: 'service_account',
      project_id: this.projectId,
      private_key_id: 'key-1',
      private_key: this.privateKey.export({ type: 'pkcs8', format: 'pem' }),
      client_email: this.clientEmail,
      token_uri: this.tokenUri,
      ...overrides,
    });
  }

  /** Google revoked every access token issued so far (the next send with one gets 401). */
  revokeTokens(): void {
    this.issued.clear();
  }

  /** Issued access tokens stay valid across resets, as a provider's token cache outlives a test case. */
  override reset(): void {
    super.reset();
    this.unregistered.clear();
    this.tokenExchanges = 0;
  }

  protected handle(request: FakeRequest): FakeReply {
    if (request.method === 'POST' && request.path === '/token') return this.exchange(request);
    const route = /^\/v1\/projects\/([^/]+)\/messages:send$/.exec(request.path);
    this.expect(request.method === 'POST' && route, 404, `no route ${request.method} ${request.path}`, rpcError(404, 'NOT_FOUND', 'Not Found'));
    const bearer = /^Bearer (.+)$/.exec(request.header('authorization') ?? '')?.[1];
    this.expect(
      bearer && this.issued.has(bearer),
      401,
      'bad access token',
      rpcError(
        401,
        'UNAUTHENTICATED',
        'Request had invalid authentication credentials. Expected OAuth 2 access token, login cookie or other valid authentication credential.',
      ),
    );
    this.expect(
      route![1] === this.projectId,
      403,
      `project ${route![1]}`,
      rpcError(403, 'PERMISSION_DENIED', 'Permission denied on resource project.', 'SENDER_ID_MISMATCH'),
    );
    this.expect(
      request.header('content-type')?.startsWith('application/json'),
      400,
      'not JSON',
      rpcError(400, 'INVALID_ARGUMENT', 'Invalid JSON payload received.'),
    );
    const message = request.json().message;
    const invalid = (field: string, description: string) =>
      this.refuse(400, `${field}: ${description}`, {
        error: { code: 400, message: description, status: 'INVALID_ARGUMENT', details: [{ '@type': BAD_REQUEST, fieldViolations: [{ field, description }] }] },
      });
    if (!message || typeof message !== 'object') invalid('message', 'Message is required');
    if ([message.token, message.topic, message.condition].filter((target) => target !== undefined).length !== 1)
      invalid('message', 'Exactly one of token, topic or condition is required');
    if (typeof message.token !== 'string') invalid('message.token', 'token must be a string');
    for (const key of Object.keys(message.notification ?? {})) {
      if (!['title', 'body', 'image'].includes(key)) invalid(`message.notification.${key}`, `Invalid JSON payload received. Unknown name "${key}"`);
    }
    Object.entries(message.data ?? {}).forEach(([key, value], index) => {
      if (typeof value !== 'string')
        invalid(`message.data[${index}].value`, `Invalid value at 'message.data[${index}].value' (TYPE_STRING), ${JSON.stringify(value)} (key ${key})`);
    });
    if (message.android?.ttl !== undefined && !/^\d+(\.\d+)?s$/.test(message.android.ttl)) invalid('message.android.ttl', 'Illegal duration format');
    if (message.android?.priority !== undefined && !['NORMAL', 'HIGH'].includes(message.android.priority))
      invalid('message.android.priority', 'Invalid value at message.android.priority');
    if (!/^[\w:-]{20,}$/.test(message.token)) {
      return { status: 400, body: rpcError(400, 'INVALID_ARGUMENT', 'The registration token is not a valid FCM registration token', 'INVALID_ARGUMENT') };
    }
    if (this.unregistered.has(message.token)) return { status: 404, body: rpcError(404, 'NOT_FOUND', 'Requested entity was not found.', 'UNREGISTERED') };
    return this.deliver(request, { status: 200, body: { name: `projects/${this.projectId}/messages/0:${Date.now()}%${randomBytes(8).toString('hex')}` } });
  }

  protected failure(outcome: VendorOutcome): FakeReply {
    switch (outcome) {
      case 'rate_limited':
        return {
          status: 429,
          headers: { 'retry-after': '30' },
          body: rpcError(429, 'RESOURCE_EXHAUSTED', 'Quota exceeded for quota metric.', 'QUOTA_EXCEEDED'),
        };
      case 'unavailable':
        return { status: 503, body: rpcError(503, 'UNAVAILABLE', 'The service is currently unavailable.', 'UNAVAILABLE') };
      case 'permanent':
        return { status: 400, body: rpcError(400, 'INVALID_ARGUMENT', 'Request contains an invalid argument.', 'INVALID_ARGUMENT') };
      case 'invalid_recipient':
        return { status: 404, body: rpcError(404, 'NOT_FOUND', 'Requested entity was not found.', 'UNREGISTERED') };
      case 'auth':
        return { status: 401, body: rpcError(401, 'UNAUTHENTICATED', 'Auth error from APNS or Web Push Service', 'THIRD_PARTY_AUTH_ERROR') };
    }
  }

  private exchange(request: FakeRequest): FakeReply {
    const form = request.form();
    const grantRefused = (description: string) => this.refuse(400, description, { error: 'invalid_grant', error_description: description });
    this.expect(request.header('content-type')?.startsWith('application/x-www-form-urlencoded'), 400, 'token request not form-encoded', {
      error: 'invalid_request',
    });
    if (form.get('grant_type') !== 'urn:ietf:params:oauth:grant-type:jwt-bearer') grantRefused(`grant_type ${form.get('grant_type')}`);
    const jwt = verifyJwt(form.get('assertion') ?? '', this.publicKey, 'RS256');
    if (typeof jwt === 'string')
      return grantRefused(
        jwt === 'expired' ? 'Invalid JWT: Token must be a short-lived token (60 minutes) and in a reasonable timeframe.' : 'Invalid JWT Signature.',
      );
    const { iss, scope, aud, iat, exp } = jwt.payload;
    if (iss !== this.clientEmail) grantRefused(`Invalid JWT: iss ${String(iss)}`);
    if (aud !== this.tokenUri) grantRefused(`Invalid JWT: aud ${String(aud)}`);
    if (typeof scope !== 'string' || !scope.split(' ').includes(SCOPE))
      return this.refuse(400, `scope ${String(scope)}`, { error: 'invalid_scope', error_description: 'Invalid OAuth scope or ID token audience provided.' });
    if (typeof iat !== 'number' || typeof exp !== 'number' || exp - iat > 3600 || iat > Date.now() / 1000 + 60) {
      grantRefused('Invalid JWT: Token must be a short-lived token (60 minutes) and in a reasonable timeframe.');
    }
    const accessToken = `ya29.${randomBytes(24).toString('base64url')}`;
    this.issued.add(accessToken);
    this.tokenExchanges++;
    return { status: 200, body: { access_token: accessToken, expires_in: 3599, token_type: 'Bearer' } };
  }
}

function rpcError(code: number, status: string, message: string, fcmErrorCode?: string) {
  return { error: { code, message, status, ...(fcmErrorCode ? { details: [{ '@type': FCM_ERROR, errorCode: fcmErrorCode }] } : {}) } };
}
