import { execFileSync } from 'node:child_process';
import { createHash, createHmac, createPrivateKey, createSign, generateKeyPairSync, randomBytes, randomUUID, sign } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { plivoSignatureV3, twilioSignature, vonageSignature } from '@app/providers';

/**
 * What each vendor does when it calls an event webhook, with keys made for the test: the headers
 * and body it sends, signed its way. Tests hand the public half (or the shared secret) to the
 * integration, as a user copies it from the vendor's console.
 */

type Headers = Record<string, string>;
export interface SignedRequest {
  body: string;
  headers: Headers;
  /** A callback made as a GET: the query string (without `?`) the vendor appends to the URL. */
  query?: string;
}

const seconds = (at: Date) => String(Math.floor(at.getTime() / 1000));

/** SendGrid Signed Event Webhook: ECDSA P-256 key pair; the public key as SendGrid shows it (base64 DER). */
export class SendGridSigner {
  private readonly keys = generateKeyPairSync('ec', { namedCurve: 'prime256v1' });
  readonly verificationKey = this.keys.publicKey.export({ format: 'der', type: 'spki' }).toString('base64');

  sign(events: unknown[], at = new Date()): SignedRequest {
    const body = JSON.stringify(events);
    const timestamp = seconds(at);
    const signature = sign('sha256', Buffer.from(timestamp + body), { key: this.keys.privateKey, dsaEncoding: 'der' }).toString('base64');
    return {
      body,
      headers: { 'content-type': 'application/json', 'x-twilio-email-event-webhook-signature': signature, 'x-twilio-email-event-webhook-timestamp': timestamp },
    };
  }
}

/** Mailgun: the HTTP webhook signing key signs timestamp + token inside the body. */
export class MailgunSigner {
  readonly signingKey = randomBytes(16).toString('hex');

  sign(eventData: Record<string, unknown>, at = new Date()): SignedRequest {
    const timestamp = seconds(at);
    const token = randomBytes(25).toString('hex');
    const signature = createHmac('sha256', this.signingKey)
      .update(timestamp + token)
      .digest('hex');
    return { body: JSON.stringify({ signature: { timestamp, token, signature }, 'event-data': eventData }), headers: { 'content-type': 'application/json' } };
  }
}

/** Svix (Resend): a whsec_ secret; svix-id stays the same on the vendor's retries. */
export class SvixSigner {
  private readonly key = randomBytes(24);
  readonly secret = `whsec_${this.key.toString('base64')}`;

  sign(payload: unknown, options: { id?: string; at?: Date } = {}): SignedRequest & { id: string } {
    const id = options.id ?? `msg_${randomBytes(12).toString('hex')}`;
    const body = JSON.stringify(payload);
    const timestamp = seconds(options.at ?? new Date());
    const signature = createHmac('sha256', this.key).update(`${id}.${timestamp}.${body}`).digest('base64');
    return { id, body, headers: { 'content-type': 'application/json', 'svix-id': id, 'svix-timestamp': timestamp, 'svix-signature': `v1,${signature}` } };
  }
}

/**
 * Vendors that sign nothing (Postmark, Mailjet, Brevo, Infobip, seven): the credentials of the
 * webhook URL as Basic auth, or the key as a bearer token where the vendor lets a header be set.
 */
export class CredentialsSigner {
  readonly credentials = `hook:${randomBytes(12).toString('hex')}`;

  sign(body: unknown, options: { credentials?: string; scheme?: 'Basic' | 'Bearer' } = {}): SignedRequest {
    const credentials = options.credentials ?? this.credentials;
    const scheme = options.scheme ?? 'Basic';
    return {
      body: JSON.stringify(body),
      headers: {
        'content-type': 'application/json',
        authorization: `${scheme} ${scheme === 'Basic' ? Buffer.from(credentials).toString('base64') : credentials}`,
      },
    };
  }
}

/** Amazon SNS: an RSA key and a self-signed certificate (openssl), the certificate configured on the integration. */
export class SnsSigner {
  readonly certificate: string;
  private readonly privateKey: string;

  constructor() {
    const dir = mkdtempSync(join(tmpdir(), 'sns-cert-'));
    try {
      execFileSync(
        'openssl',
        [
          'req',
          '-x509',
          '-newkey',
          'rsa:2048',
          '-nodes',
          '-keyout',
          join(dir, 'key.pem'),
          '-out',
          join(dir, 'cert.pem'),
          '-subj',
          '/CN=sns.us-east-1.amazonaws.com',
          '-days',
          '1',
        ],
        { stdio: 'ignore' },
      );
      this.certificate = readFileSync(join(dir, 'cert.pem'), 'utf8');
      this.privateKey = readFileSync(join(dir, 'key.pem'), 'utf8');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }

  /** A Notification carrying an SES event (or any `fields`), signed with SignatureVersion 2 unless told. */
  sign(fields: Record<string, string>, options: { at?: Date; version?: '1' | '2' } = {}): SignedRequest {
    const version = options.version ?? '2';
    const message: Record<string, string> = {
      MessageId: fields.MessageId ?? `${randomBytes(16).toString('hex')}`,
      TopicArn: 'arn:aws:sns:us-east-1:123456789012:ses-events',
      Timestamp: (options.at ?? new Date()).toISOString(),
      ...fields,
    };
    const order =
      message.Type === 'Notification'
        ? ['Message', 'MessageId', 'Subject', 'Timestamp', 'TopicArn', 'Type']
        : ['Message', 'MessageId', 'SubscribeURL', 'Timestamp', 'Token', 'TopicArn', 'Type'];
    const text = order
      .filter((f) => message[f] !== undefined)
      .map((f) => `${f}\n${message[f]}\n`)
      .join('');
    const signature = createSign(version === '2' ? 'RSA-SHA256' : 'RSA-SHA1')
      .update(text)
      .sign(createPrivateKey(this.privateKey), 'base64');
    const body = {
      ...message,
      SignatureVersion: version,
      Signature: signature,
      SigningCertURL: 'https://sns.us-east-1.amazonaws.com/SimpleNotificationService-test.pem',
    };
    return { body: JSON.stringify(body), headers: { 'content-type': 'text/plain; charset=UTF-8', 'x-amz-sns-message-type': message.Type } };
  }
}

/** Twilio: the auth token signs the full URL and the sorted form parameters. */
export class TwilioSigner {
  constructor(readonly authToken: string) {}

  sign(url: string, params: Record<string, string>): SignedRequest {
    const form = new URLSearchParams(params);
    return {
      body: form.toString(),
      headers: { 'content-type': 'application/x-www-form-urlencoded', 'x-twilio-signature': twilioSignature(this.authToken, url, form) },
    };
  }
}

/** Plivo: the auth token signs the URL, the sorted form parameters and a nonce (signature V3). */
export class PlivoSigner {
  constructor(readonly authToken: string) {}

  sign(url: string, params: Record<string, string>): SignedRequest {
    const form = new URLSearchParams(params);
    const nonce = String(randomBytes(8).readBigUInt64BE());
    return {
      body: form.toString(),
      headers: {
        'content-type': 'application/x-www-form-urlencoded',
        'x-plivo-signature-v3': plivoSignatureV3(this.authToken, url, form, nonce),
        'x-plivo-signature-v3-nonce': nonce,
      },
    };
  }
}

/** Telnyx: an Ed25519 key pair; the public key as the portal shows it (base64 of the 32 raw bytes). */
export class TelnyxSigner {
  private readonly keys = generateKeyPairSync('ed25519');
  readonly publicKey = this.keys.publicKey.export({ format: 'der', type: 'spki' }).subarray(-32).toString('base64');

  sign(payload: unknown, at = new Date()): SignedRequest {
    const body = JSON.stringify(payload);
    const timestamp = seconds(at);
    const signature = sign(null, Buffer.from(`${timestamp}|${body}`), this.keys.privateKey).toString('base64');
    return { body, headers: { 'content-type': 'application/json', 'telnyx-signature-ed25519': signature, 'telnyx-timestamp': timestamp } };
  }
}

/** A JWT signed with a shared secret (HS256), as Vonage and MessageBird put in their webhook headers. */
export function hs256Jwt(claims: Record<string, unknown>, secret: string): string {
  const encode = (part: Record<string, unknown>) => Buffer.from(JSON.stringify(part)).toString('base64url');
  const signingInput = `${encode({ alg: 'HS256', typ: 'JWT' })}.${encode(claims)}`;
  return `${signingInput}.${createHmac('sha256', secret).update(signingInput).digest('base64url')}`;
}

const sha256Hex = (data: string) => createHash('sha256').update(data).digest('hex');

/** Vonage: the account's signature secret signs either a JWT in Authorization (body hashed) or a `sig` parameter. */
export class VonageSigner {
  readonly signatureSecret = randomBytes(20).toString('hex');

  /** A JSON receipt with `Authorization: Bearer <JWT>` (`payload_hash`, `iat`). */
  signJwt(receipt: Record<string, string>, at = new Date()): SignedRequest {
    const body = JSON.stringify(receipt);
    const token = hs256Jwt(
      { iat: Math.floor(at.getTime() / 1000), jti: randomUUID(), iss: 'Vonage', payload_hash: sha256Hex(body), api_key: receipt['api-key'] ?? 'key' },
      this.signatureSecret,
    );
    return { body, headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` } };
  }

  /** A form receipt with `timestamp`, `nonce` and the `sig` parameter (HMAC-SHA256 unless told). */
  signSig(receipt: Record<string, string>, options: { at?: Date; method?: 'md5hash' | 'sha256' } = {}): SignedRequest {
    const params = new URLSearchParams({ ...receipt, timestamp: seconds(options.at ?? new Date()), nonce: randomUUID() });
    params.set('sig', vonageSignature(params, this.signatureSecret, options.method ?? 'sha256'));
    return { body: params.toString(), headers: { 'content-type': 'application/x-www-form-urlencoded' } };
  }
}

/** MessageBird: the signing key signs a JWT over the URL called (query included) and the body. */
export class MessageBirdSigner {
  readonly signingKey = randomBytes(24).toString('base64url');

  /** A status report as MessageBird sends it: a GET with the report in the query (or, with `post`, a form body). */
  sign(url: string, report: Record<string, string>, options: { at?: Date; post?: boolean } = {}): SignedRequest {
    const query = new URLSearchParams(report).toString();
    const body = options.post ? query : '';
    const seconds = Math.floor((options.at ?? new Date()).getTime() / 1000);
    const token = hs256Jwt(
      {
        iss: 'MessageBird',
        nbf: seconds,
        iat: seconds,
        exp: seconds + 60,
        jti: randomUUID(),
        url_hash: sha256Hex(options.post ? url : `${url}?${query}`),
        ...(body ? { payload_hash: sha256Hex(body) } : {}),
      },
      this.signingKey,
    );
    return {
      body,
      headers: { 'messagebird-signature-jwt': token, ...(body ? { 'content-type': 'application/x-www-form-urlencoded' } : {}) },
      ...(options.post ? {} : { query }),
    };
  }
}

/** A request as the parsers take it. */
export function inbound(signed: SignedRequest, url = 'https://api.example.com/v2/inbound-webhooks/delivery-providers/e/i') {
  return {
    rawBody: Buffer.from(signed.body),
    headers: Object.fromEntries(Object.entries(signed.headers).map(([k, v]) => [k.toLowerCase(), v])),
    url: signed.query === undefined ? url : `${url}?${signed.query}`,
  };
}
