/** What came of one POST to a webhook URL. */
export interface WebhookResponse {
  /** Absent when no HTTP answer came (refused by the network rules, connection error, timeout). */
  statusCode?: number;
  /** An excerpt of the answer body. */
  body?: string;
  error?: string;
}

/** POSTs a signed webhook under the outbound network rules (the SSRF guard the chat webhooks use). */
export interface WebhookSender {
  post(url: string, headers: Record<string, string>, body: string, timeoutMs: number): Promise<WebhookResponse>;
  /** Throws a readable Error when the URL can never be a target (bad scheme, cloud metadata, private address when not allowed). */
  checkTarget(url: string): Promise<void>;
}
export const WEBHOOK_SENDER = Symbol('WebhookSender');
