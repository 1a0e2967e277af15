import { randomUUID } from 'node:crypto';
import { FakeReply, FakeRequest, VendorFake, VendorOutcome } from '../vendor-fake';
import { text, token } from './chat-fake-kit';

const ADAPTIVE_CARD = 'application/vnd.microsoft.card.adaptive';

/**
 * Microsoft Teams incoming webhooks, both kinds:
 * - an Office 365 connector (`POST /webhookb2/…/IncomingWebhook/…`): takes `{text}`, a MessageCard
 *   (text or summary required) or the attachments envelope; answers 200 `1` with `request-id`, and
 *   relays Teams' own failures as 200 "Webhook message delivery failed with error: …".
 * - a Workflows (Power Automate) trigger (`POST /workflows/{id}/triggers/manual/paths/invoke?…&sig=`):
 *   the `sig` query is the credential; takes only `{type:'message', attachments:[Adaptive Card]}`;
 *   answers 202 with `x-ms-workflow-run-id`, errors as `{error:{code, message}}`.
 */
export class MsTeamsFake extends VendorFake {
  readonly connectorPath = `/webhookb2/${randomUUID()}@${randomUUID()}/IncomingWebhook/${token(32)}/${randomUUID()}`;
  readonly workflowId = token(32).toLowerCase();
  readonly signature = token(43);

  get connectorUrl(): string {
    return `${this.origin}${this.connectorPath}`;
  }

  get workflowUrl(): string {
    return `${this.origin}/workflows/${this.workflowId}/triggers/manual/paths/invoke?api-version=2016-06-01&sp=%2Ftriggers%2Fmanual%2Frun&sv=1.0&sig=${this.signature}`;
  }

  protected handle(request: FakeRequest): FakeReply {
    if (request.path.startsWith('/workflows/')) return this.workflow(request);
    this.expect(request.path === this.connectorPath, 404, 'unknown connector', 'Webhook Not Found');
    this.expect(request.method === 'POST', 405, `method ${request.method}`, 'Method Not Allowed');
    const body = this.jsonBody(request);
    this.expect(body, 400, 'not JSON', 'Bad payload received by generic incoming webhook.');
    if (!isEnvelope(body))
      this.expect(typeof body.text === 'string' || typeof body.summary === 'string', 400, 'no text or summary', 'Summary or Text is required.');
    return this.deliver(request, text(200, '1', { 'request-id': randomUUID() }));
  }

  private workflow(request: FakeRequest): FakeReply {
    const error = (status: number, reason: string, code: string, message: string) => this.refuse(status, reason, { error: { code, message } });
    if (request.path !== `/workflows/${this.workflowId}/triggers/manual/paths/invoke`)
      error(404, 'unknown workflow', 'WorkflowNotFound', 'The workflow could not be found.');
    if (request.query.get('sig') !== this.signature)
      error(401, 'bad signature', 'DirectApiInvalidAuthorizationSignature', `The provided authorization signature '${request.query.get('sig')}' is not valid.`);
    if (request.method !== 'POST') error(405, `method ${request.method}`, 'MethodNotAllowed', 'The trigger only accepts POST.');
    const body = this.jsonBody(request);
    if (!body) error(400, 'not JSON', 'InvalidRequestContent', 'The request content is not valid JSON.');
    if (!isEnvelope(body) || !body.attachments.every((a: any) => a?.contentType === ADAPTIVE_CARD && a.content?.type === 'AdaptiveCard')) {
      error(400, 'not an Adaptive Card envelope', 'InvalidRequestContent', 'The request must be a message with Adaptive Card attachments.');
    }
    return this.deliver(request, { status: 202, headers: { 'x-ms-workflow-run-id': `08584${Date.now()}CU00`, 'x-ms-request-id': randomUUID() } });
  }

  private jsonBody(request: FakeRequest): any {
    if (!request.header('content-type')?.startsWith('application/json')) return undefined;
    try {
      const body = request.json();
      return body && typeof body === 'object' && !Array.isArray(body) ? body : undefined;
    } catch {
      return undefined;
    }
  }

  protected failure(outcome: VendorOutcome, request: FakeRequest): FakeReply {
    const workflowError = (status: number, code: string, message: string, headers: Record<string, string> = {}) => ({
      status,
      headers,
      body: { error: { code, message } },
    });
    const relayed = (status: number) =>
      text(
        200,
        `Webhook message delivery failed with error: Microsoft Teams endpoint returned HTTP error ${status} with ContextId tcid=0,server=msgapi-production-eus-azsc2-4-170,cv=${token(22)}.0..`,
      );
    const workflow = request.path.startsWith('/workflows/');
    switch (outcome) {
      case 'rate_limited':
        return workflow
          ? workflowError(429, 'WorkflowRequestsThrottled', 'Rate limit is exceeded. Try again in 7 seconds.', { 'retry-after': '7' })
          : relayed(429);
      case 'unavailable':
        return workflow ? workflowError(503, 'ServiceUnavailable', 'The service is unavailable.') : relayed(502);
      case 'permanent':
        return workflow ? workflowError(400, 'InvalidRequestContent', 'The request content is not valid.') : text(400, 'Summary or Text is required.');
      case 'invalid_recipient':
        return workflow ? workflowError(404, 'WorkflowNotFound', 'The workflow could not be found.') : relayed(404);
      case 'auth':
        return workflow
          ? workflowError(401, 'DirectApiAuthorizationRequired', `The request must be authenticated only by Shared Access scheme (sig=${this.signature}).`)
          : text(403, 'Forbidden');
    }
  }
}

function isEnvelope(body: any): boolean {
  return body.type === 'message' && Array.isArray(body.attachments) && body.attachments.length > 0;
}
