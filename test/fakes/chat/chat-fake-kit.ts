import { randomBytes } from 'node:crypto';
import { FakeRequest, VendorFake } from '../vendor-fake';

/** A random token of letters and digits, as vendors put in hook paths. */
export function token(length = 24): string {
  return randomBytes(length).toString('base64url').replace(/[-_]/g, 'x').slice(0, length);
}

/**
 * A vendor fake reached through a subscriber's webhook URL: the path (and sometimes the query) is
 * the credential, so the fake knows its one valid hook path and refuses others as the vendor does.
 */
export abstract class ChatHookFake extends VendorFake {
  constructor(readonly hookPath: string) {
    super();
  }

  /** What a subscriber stores as credentials.webhookUrl. */
  get webhookUrl(): string {
    return `${this.origin}${this.hookPath}`;
  }

  /** The same hook with its secret part changed (a revoked or mistyped URL). */
  get wrongWebhookUrl(): string {
    return `${this.origin}${this.hookPath.replace(/[^/]+(\/?)$/, 'revoked$1')}`;
  }

  protected isJson(request: FakeRequest): boolean {
    if (!request.header('content-type')?.startsWith('application/json')) return false;
    try {
      request.json();
      return true;
    } catch {
      return false;
    }
  }
}

/** A plain-text answer. */
export function text(status: number, body: string, headers: Record<string, string> = {}) {
  return { status, headers: { 'content-type': 'text/plain; charset=utf-8', ...headers }, body };
}

/** Fails when an error's message or raw mentions any of the secrets (hook URLs, tokens). */
export function expectNoSecrets(error: { message: string; raw?: unknown }, ...secrets: string[]): void {
  const shown = `${error.message} ${JSON.stringify(error.raw ?? null)}`;
  for (const secret of secrets) {
    if (shown.includes(secret)) throw new Error(`the error shows a secret (${secret.slice(0, 12)}…): ${shown}`);
  }
}
