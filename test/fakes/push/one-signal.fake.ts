import { randomUUID } from 'node:crypto';
import { hasScheme } from '../vendor-auth';
import { FakeReply, FakeRequest, VendorFake, VendorOutcome } from '../vendor-fake';

/** Devices one notification may name (player ids or External IDs). */
const MAX_TARGETS = 2000;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const ACCESS_DENIED =
  "Access denied.  Please include an 'Authorization: ...' header with a valid API key (https://documentation.onesignal.com/docs/accounts-and-keys#section-keys-ids).";

/**
 * OneSignal's create-notification and view-notifications endpoints, legacy (`/api/v1/notifications`,
 * player ids) and current (`/notifications`, `include_aliases.external_id` + `target_channel`), with
 * the app's REST key as `Basic <key>` or `Key <key>`. Like OneSignal it answers 200 with an empty id
 * and `errors` when no device could be targeted: ids in `unknown` come back as invalid player ids /
 * aliases, ids in `unsubscribed` as "All included players are not subscribed". A repeated
 * `idempotency_key` replays the first answer without sending again. One notification names 1 to
 * 2,000 devices.
 */
export class OneSignalFake extends VendorFake {
  readonly unknown = new Set<string>();
  readonly unsubscribed = new Set<string>();
  private readonly replays = new Map<string, FakeReply>();

  constructor(
    readonly appId = '5eb5a37e-b458-11e3-ac11-000c2940e62c',
    readonly restKey = 'rest-api-key',
  ) {
    super();
  }

  override reset(): void {
    super.reset();
    this.unknown.clear();
    this.unsubscribed.clear();
    this.replays.clear();
  }

  protected handle(request: FakeRequest): FakeReply {
    const legacy = request.path === '/api/v1/notifications';
    this.expect(legacy || request.path === '/notifications', 404, `no route ${request.method} ${request.path}`, { errors: ['Not Found'] });
    this.expect(hasScheme(request, 'Basic', this.restKey) || hasScheme(request, 'Key', this.restKey), 403, 'bad REST key', { errors: [ACCESS_DENIED] });
    if (request.method === 'GET') {
      this.expect(request.query.get('app_id') === this.appId, 400, `app_id ${request.query.get('app_id')}`, {
        errors: ['app_id not found. You may be missing a Content-Type: application/json header.'],
      });
      return { status: 200, body: { total_count: 0, offset: 0, limit: Number(request.query.get('limit') ?? 50), notifications: [] } };
    }
    this.expect(request.method === 'POST', 405, `method ${request.method}`, { errors: ['Method Not Allowed'] });
    this.expect(request.header('content-type')?.startsWith('application/json'), 400, 'not JSON', {
      errors: ['app_id not found. You may be missing a Content-Type: application/json header.'],
    });
    const body = request.json();
    const invalid = (message: string) => this.refuse(400, message, { errors: [message] });
    if (body.app_id !== this.appId) invalid('app_id not found. You may be missing a Content-Type: application/json header.');
    if (typeof body.contents?.en !== 'string' || body.contents.en === '') invalid('Message Notifications must have English language content');
    if (body.idempotency_key !== undefined && !UUID.test(body.idempotency_key)) invalid('idempotency_key must be a valid UUID');
    if (body.ios_badgeType !== undefined && !['None', 'SetTo', 'Increase'].includes(body.ios_badgeType))
      invalid('ios_badgeType must be None, SetTo or Increase');
    const replay = body.idempotency_key && this.replays.get(body.idempotency_key);
    if (replay) return replay;

    let targets: string[];
    let unknownError: (ids: string[]) => unknown;
    if (legacy && Array.isArray(body.include_player_ids)) {
      targets = body.include_player_ids;
      unknownError = (ids) => ({ invalid_player_ids: ids });
    } else if (!legacy && body.include_aliases?.external_id) {
      if (body.target_channel !== 'push') invalid('target_channel is required when targeting aliases (push, email or sms)');
      targets = body.include_aliases.external_id;
      unknownError = (ids) => ({ invalid_aliases: { external_id: ids } });
    } else {
      return invalid('You must include which players, segments, or tags you wish to send this notification to.');
    }
    if (!Array.isArray(targets) || targets.length === 0 || targets.length > MAX_TARGETS)
      invalid(`You may target between 1 and ${MAX_TARGETS} devices per notification (${Array.isArray(targets) ? targets.length : 'none'} given)`);
    const unknownIds = targets.filter((id) => this.unknown.has(id) || (legacy && !UUID.test(id)));
    const reachable = targets.filter((id) => !unknownIds.includes(id) && !this.unsubscribed.has(id));
    let reply: FakeReply;
    if (unknownIds.length === targets.length) reply = { status: 200, body: { id: '', errors: unknownError(unknownIds) } };
    else if (reachable.length === 0) reply = { status: 200, body: { id: '', errors: ['All included players are not subscribed'] } };
    else {
      const id = randomUUID();
      reply = this.deliver(request, {
        status: 200,
        body: {
          id,
          ...(legacy ? { recipients: reachable.length } : {}),
          external_id: null,
          ...(unknownIds.length ? { errors: unknownError(unknownIds) } : {}),
        },
      });
    }
    if (body.idempotency_key && this.accepted.includes(request)) this.replays.set(body.idempotency_key, reply);
    return reply;
  }

  protected failure(outcome: VendorOutcome, request: FakeRequest): FakeReply {
    const target = request.json().include_player_ids?.[0] ?? request.json().include_aliases?.external_id?.[0];
    switch (outcome) {
      case 'rate_limited':
        return { status: 429, headers: { 'retry-after': '10' }, body: { errors: ['API rate limit exceeded'] } };
      case 'unavailable':
        return { status: 502, body: { errors: ['Bad Gateway'] } };
      case 'permanent':
        return { status: 400, body: { errors: ['Notification content must not be null for any languages.'] } };
      case 'invalid_recipient':
        return { status: 200, body: { id: '', errors: { invalid_player_ids: [target] } } };
      case 'auth':
        return { status: 403, body: { errors: [ACCESS_DENIED] } };
    }
  }
}
