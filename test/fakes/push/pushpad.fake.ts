import { FakeReply, FakeRequest, VendorFake, VendorOutcome } from '../vendor-fake';

/**
 * Pushpad REST API: `POST /api/v1/projects/{id}/notifications` and `GET /api/v1/projects/{id}`,
 * authenticated with `Token token="…"` (REST docs) or `Bearer …` (pushpad 2.x). Answers 201
 * `{id, scheduled, uids}`, where `uids` lists the uids that have subscriptions: every uid except
 * those in `unsubscribed`.
 */
export class PushpadFake extends VendorFake {
  readonly unsubscribed = new Set<string>();
  private nextId = 197_123;

  constructor(
    readonly token = 'pushpad-token',
    readonly projectId = '123',
  ) {
    super();
  }

  override reset(): void {
    super.reset();
    this.unsubscribed.clear();
    this.nextId = 197_123;
  }

  protected handle(request: FakeRequest): FakeReply {
    const authorization = request.header('authorization');
    this.expect(authorization === `Token token="${this.token}"` || authorization === `Bearer ${this.token}`, 401, 'bad token', { error: 'Unauthorized' });
    const route = /^\/api\/v1\/projects\/([^/]+)(\/notifications)?$/.exec(request.path);
    this.expect(route, 404, `no route ${request.method} ${request.path}`, { error: 'Not Found' });
    this.expect(route![1] === this.projectId, 404, `project ${route![1]}`, { error: 'Project not found' });
    if (request.method === 'GET' && !route![2]) return { status: 200, body: { id: Number(this.projectId), name: 'Example', website: 'https://example.com' } };
    this.expect(request.method === 'POST' && route![2], 404, `no route ${request.method} ${request.path}`, { error: 'Not Found' });
    this.expect(request.header('content-type')?.startsWith('application/json'), 415, 'not JSON', { error: 'Unsupported Media Type' });
    const { notification, uids } = request.json();
    const invalid = (field: string, problem: string) => this.refuse(422, `${field} ${problem}`, { errors: { [field]: [problem] } });
    if (typeof notification?.body !== 'string' || notification.body === '') invalid('body', "can't be blank");
    if (notification.title !== undefined && notification.title.length > 100) invalid('title', 'is too long (maximum is 100 characters)');
    if (notification.target_url !== undefined && !/^https?:\/\//.test(notification.target_url)) invalid('target_url', 'is not a valid URL');
    if (uids !== undefined && (!Array.isArray(uids) || uids.some((uid: unknown) => typeof uid !== 'string'))) invalid('uids', 'must be a list of strings');
    const reached = (uids as string[]).filter((uid) => !this.unsubscribed.has(uid));
    const id = this.nextId++;
    if (reached.length === 0) return { status: 201, body: { id, scheduled: 0, uids: [] } };
    return this.deliver(request, { status: 201, body: { id, scheduled: reached.length, uids: reached } });
  }

  protected failure(outcome: VendorOutcome): FakeReply {
    switch (outcome) {
      case 'rate_limited':
        return { status: 429, headers: { 'retry-after': '60' }, body: { error: 'Too Many Requests' } };
      case 'unavailable':
        return { status: 503, body: { error: 'Service Unavailable' } };
      case 'permanent':
        return { status: 402, body: { error: 'Payment Required: the account has unpaid invoices' } };
      case 'invalid_recipient':
        return { status: 201, body: { id: this.nextId++, scheduled: 0, uids: [] } };
      case 'auth':
        return { status: 403, body: { error: 'Forbidden' } };
    }
  }
}
