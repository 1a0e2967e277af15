import { randomBytes } from 'node:crypto';
import { hasScheme } from '../vendor-auth';
import { FakeReply, FakeRequest, VendorFake, VendorOutcome } from '../vendor-fake';

/**
 * Pusher Beams publish API: `POST /publish_api/v1/instances/{instanceId}/publishes/users`, Bearer
 * secret key, 1–1000 user ids of at most 164 characters, at least one platform payload. Answers
 * `{publishId}`; errors are `{error, description}`.
 */
export class PusherBeamsFake extends VendorFake {
  constructor(
    readonly instanceId = '8f9a6e22-2483-49aa-8552-125f1a4c5781',
    readonly secretKey = 'beams-secret-key',
  ) {
    super();
  }

  protected handle(request: FakeRequest): FakeReply {
    const error = (status: number, name: string, description: string) => this.refuse(status, description, { error: name, description });
    const route = /^\/publish_api\/v1\/instances\/([^/]+)\/publishes\/users$/.exec(request.path);
    if (request.method !== 'POST' || !route) error(404, 'Not Found', `no route ${request.method} ${request.path}`);
    if (route![1] !== this.instanceId) error(404, 'Instance not found', `Could not find instance: ${route![1]}`);
    if (!hasScheme(request, 'Bearer', this.secretKey)) error(401, 'Unauthorized', 'Incorrect API Key');
    if (!request.header('content-type')?.startsWith('application/json')) error(400, 'Bad request', 'Content-Type must be application/json');
    const body = request.json();
    if (!Array.isArray(body.users) || body.users.length === 0 || body.users.length > 1000)
      error(422, 'Unprocessable Entity', 'Publish requests must target between 1 and 1000 users');
    for (const user of body.users) {
      if (typeof user !== 'string' || user === '' || user.length > 164) error(422, 'Unprocessable Entity', `User id ${JSON.stringify(user)} is invalid`);
    }
    if (!body.apns && !body.fcm && !body.web) error(422, 'Unprocessable Entity', 'Publish requests must contain at least one platform payload');
    return this.deliver(request, { status: 200, body: { publishId: `pubid-${randomBytes(16).toString('hex')}` } });
  }

  protected failure(outcome: VendorOutcome): FakeReply {
    switch (outcome) {
      case 'rate_limited':
        return { status: 429, headers: { 'retry-after': '1' }, body: { error: 'Too Many Requests', description: 'Rate limit exceeded' } };
      case 'unavailable':
        return { status: 500, body: { error: 'Internal Server Error', description: 'Something went wrong' } };
      case 'permanent':
        return { status: 413, body: { error: 'Payload Too Large', description: 'Payload too large' } };
      case 'invalid_recipient':
        return { status: 422, body: { error: 'Unprocessable Entity', description: 'User id is invalid' } };
      case 'auth':
        return { status: 401, body: { error: 'Unauthorized', description: 'Incorrect API Key' } };
    }
  }
}
