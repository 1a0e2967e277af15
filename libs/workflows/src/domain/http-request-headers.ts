const MASK = '****';

/** Header names whose values are credentials: Authorization, cookies, and any naming a token, key, secret, password, signature or session. */
const SECRET_HEADER = /auth|cookie|token|secret|(?<!idempotency-)key|passw|signature|session|credential/i;

/** An Authorization scheme stays readable (`Bearer ****`); the credential after it does not. */
const AUTH_SCHEME = /^(Basic|Bearer|Token|ApiKey|Digest|Negotiate)\s+\S/i;

export function isSecretHeader(name: string): boolean {
  return SECRET_HEADER.test(name);
}

/** A secret header's value as it may be shown. */
export function maskHeaderValue(value: string): string {
  const scheme = AUTH_SCHEME.exec(value);
  return scheme ? `${scheme[1]} ${MASK}` : MASK;
}

/**
 * An HTTP request step's headers as they may be shown (execution details, API answers): the values
 * of secret-looking headers masked, the others as they are.
 */
export function shownHeaders(headers: Record<string, string>): Record<string, string> {
  return Object.fromEntries(Object.entries(headers).map(([name, value]) => [name, isSecretHeader(name) && value ? maskHeaderValue(value) : value]));
}

/** The values shownHeaders masks, for masking wherever else text may repeat them (a URL, a body, an echo). */
export function secretHeaderValues(headers: Record<string, string>): string[] {
  return Object.entries(headers)
    .filter(([name, value]) => isSecretHeader(name) && value)
    .flatMap(([, value]) => {
      const scheme = AUTH_SCHEME.exec(value);
      // the credential alone too: an endpoint may echo it without its scheme
      return scheme ? [value, value.slice(scheme[1].length).trim()] : [value];
    });
}
