import { createHash, createHmac, createPublicKey, KeyObject, timingSafeEqual, verify as verifySignature } from 'node:crypto';
import { SignatureV4 } from '@smithy/signature-v4';
import { FakeRequest } from './vendor-fake';

/** `Authorization: Basic` as [user, password], or undefined. */
export function basicCredentials(request: FakeRequest): [string, string] | undefined {
  const header = request.header('authorization');
  const match = header && /^Basic (.+)$/i.exec(header);
  if (!match) return undefined;
  const decoded = Buffer.from(match[1], 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  return colon < 0 ? undefined : [decoded.slice(0, colon), decoded.slice(colon + 1)];
}

export function hasBasic(request: FakeRequest, user: string, password: string): boolean {
  const given = basicCredentials(request);
  return !!given && given[0] === user && given[1] === password;
}

/** `Authorization: <scheme> <token>` (Bearer, Key, App, AccessKey…). */
export function hasScheme(request: FakeRequest, scheme: string, token: string): boolean {
  return request.header('authorization') === `${scheme} ${token}`;
}

/** Hex HMAC-SHA256 of the raw body, as X-Novu-Signature. */
export function hasBodyHmac(request: FakeRequest, header: string, secret: string): boolean {
  const given = request.header(header);
  if (!given) return false;
  const expected = createHmac('sha256', secret).update(request.body).digest('hex');
  return given.length === expected.length && timingSafeEqual(Buffer.from(given), Buffer.from(expected));
}

/**
 * Recomputes an AWS Signature V4 with the known test secret and compares it with the request's:
 * what AWS itself does. Checks the access key id and the region and service of the scope.
 */
export async function hasValidSigV4(
  request: FakeRequest,
  expected: { accessKeyId: string; secretAccessKey: string; region: string; service: string },
): Promise<boolean | string> {
  const authorization = request.header('authorization') ?? '';
  const match = /^AWS4-HMAC-SHA256 Credential=([^/]+)\/(\d{8})\/([^/]+)\/([^/]+)\/aws4_request, SignedHeaders=([^,]+), Signature=([0-9a-f]{64})$/.exec(
    authorization,
  );
  if (!match) return 'no SigV4 Authorization header';
  const [, accessKeyId, , region, service, signedHeaders, signature] = match;
  if (accessKeyId !== expected.accessKeyId) return `access key ${accessKeyId}`;
  if (region !== expected.region || service !== expected.service) return `scope ${region}/${service}`;
  const amzDate = request.header('x-amz-date');
  if (!amzDate) return 'no x-amz-date';
  const headers: Record<string, string> = {};
  for (const name of signedHeaders.split(';')) {
    const value = request.header(name);
    if (value === undefined) return `signed header ${name} missing`;
    headers[name] = value;
  }
  const signer = new SignatureV4({
    credentials: { accessKeyId: expected.accessKeyId, secretAccessKey: expected.secretAccessKey },
    region,
    service,
    sha256: Sha256,
    uriEscapePath: true,
  });
  const query: Record<string, string> = {};
  request.query.forEach((value, key) => (query[key] = value));
  const at = new Date(
    `${amzDate.slice(0, 4)}-${amzDate.slice(4, 6)}-${amzDate.slice(6, 8)}T${amzDate.slice(9, 11)}:${amzDate.slice(11, 13)}:${amzDate.slice(13, 15)}Z`,
  );
  const signed = await signer.sign(
    { method: request.method, protocol: 'http:', hostname: headers.host ?? '', path: request.path, query, headers, body: request.body },
    { signingDate: at, signableHeaders: new Set(signedHeaders.split(';')) },
  );
  const recomputed = /Signature=([0-9a-f]{64})/.exec(String(signed.headers.authorization))?.[1];
  return recomputed === signature || `signature mismatch`;
}

class Sha256 {
  private readonly hash;
  constructor(secret?: unknown) {
    this.hash = secret ? createHmac('sha256', secret as Buffer) : createHash('sha256');
  }
  update(data: Uint8Array | string): void {
    this.hash.update(data);
  }
  async digest(): Promise<Uint8Array> {
    return this.hash.digest();
  }
}

export interface DecodedJwt {
  header: Record<string, unknown>;
  payload: Record<string, unknown>;
}

/**
 * Verifies a compact JWS (RS256 or ES256) against a public key; returns the decoded token, or a
 * reason it is not valid (bad signature, wrong alg, expired).
 */
export function verifyJwt(token: string, key: KeyObject | string, alg: 'RS256' | 'ES256', now = Date.now()): DecodedJwt | string {
  const parts = token.split('.');
  if (parts.length !== 3) return 'not a compact JWS';
  const [headerPart, payloadPart, signaturePart] = parts;
  let header: Record<string, unknown>;
  let payload: Record<string, unknown>;
  try {
    header = JSON.parse(Buffer.from(headerPart, 'base64url').toString('utf8'));
    payload = JSON.parse(Buffer.from(payloadPart, 'base64url').toString('utf8'));
  } catch {
    return 'undecodable';
  }
  if (header.alg !== alg) return `alg ${String(header.alg)}`;
  const publicKey = typeof key === 'string' ? createPublicKey(key) : key;
  const signature = Buffer.from(signaturePart, 'base64url');
  const ok = verifySignature(
    'sha256',
    Buffer.from(`${headerPart}.${payloadPart}`),
    alg === 'ES256' ? { key: publicKey, dsaEncoding: 'ieee-p1363' } : publicKey,
    signature,
  );
  if (!ok) return 'bad signature';
  if (typeof payload.exp === 'number' && payload.exp * 1000 < now) return 'expired';
  return { header, payload };
}
