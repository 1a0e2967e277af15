import { SignJWT, jwtVerify } from 'jose';
import { InvalidSubscriberTokenError } from '../domain/errors';
import { SubscriberSession } from '../domain/subscriber-session';
import { SubscriberTokens } from '../ports/subscriber-tokens.port';

const AUDIENCE = 'novu-inbox';
const ISSUER = 'notify-service';

/** HS256 JWTs (jose): the subscriber, its environment and organization, an expiry. */
export class JoseSubscriberTokens implements SubscriberTokens {
  constructor(
    private readonly secret: Uint8Array,
    private readonly ttlSeconds: number,
  ) {}

  sign(session: SubscriberSession, now: Date): Promise<string> {
    const issuedAt = Math.floor(now.getTime() / 1000);
    return new SignJWT({ env: session.environmentId, org: session.organizationId, sid: session.subscriberId })
      .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
      .setSubject(session.subscriberInternalId)
      .setAudience(AUDIENCE)
      .setIssuer(ISSUER)
      .setIssuedAt(issuedAt)
      .setExpirationTime(issuedAt + this.ttlSeconds)
      .sign(this.secret);
  }

  async verify(token: string, now: Date): Promise<SubscriberSession> {
    try {
      const { payload } = await jwtVerify(token, this.secret, { algorithms: ['HS256'], audience: AUDIENCE, issuer: ISSUER, currentDate: now });
      const { env, org, sid, sub } = payload as Record<string, unknown>;
      if (typeof env !== 'string' || typeof org !== 'string' || typeof sid !== 'string' || typeof sub !== 'string') throw new Error('claims');
      return { environmentId: env, organizationId: org, subscriberId: sid, subscriberInternalId: sub };
    } catch {
      throw new InvalidSubscriberTokenError();
    }
  }
}
