import { lookup } from 'node:dns/promises';
import { isIP } from 'node:net';
import { createTransport } from 'nodemailer';
import type { SMTPTransportOptions } from 'nodemailer';
import type { Integration, IntegrationCheckResult, IntegrationChecker } from '@app/integrations';
import { isMetadataAddress, isNonPublicAddress } from '../network/ssrf-guard';

const TIMEOUT_MS = 10_000;

function asString(value: unknown): string | undefined {
  return typeof value === 'string' && value !== '' ? value : undefined;
}

function asBoolean(value: unknown): boolean {
  return value === true || value === 'true';
}

/**
 * Resolves the tenant's SMTP host once and answers the address to connect to, so the check and the
 * connection see the same address. Private addresses only when the deployment allows them; cloud
 * metadata never.
 */
async function resolveSmtpAddress(host: string, allowPrivate: boolean): Promise<string> {
  const address = isIP(host) ? host : (await lookup(host)).address;
  if (isMetadataAddress(address) || (!allowPrivate && isNonPublicAddress(address))) {
    throw new Error(`${host} resolves to the non-public address ${address}, which this deployment does not allow`);
  }
  return address;
}

/**
 * Custom SMTP (`nodemailer`): connects, negotiates TLS as configured and logs in, then quits
 * without sending (nodemailer's `verify`). Credential mapping as Novu's: `port` is a string, auth
 * only when both user and password are set, `tlsOptions` only with `secure`.
 */
export class NodemailerChecker implements IntegrationChecker {
  constructor(private readonly options: { allowPrivateNetworkTargets: boolean }) {}

  async check(integration: Integration): Promise<IntegrationCheckResult> {
    const { credentials } = integration;
    const host = asString(credentials.host);
    const port = Number(credentials.port);
    if (!host || !Number.isInteger(port) || port <= 0 || port > 65535) {
      return { ok: false, message: 'SMTP host and a port between 1 and 65535 are needed to check the connection' };
    }
    let address: string;
    try {
      address = await resolveSmtpAddress(host, this.options.allowPrivateNetworkTargets);
    } catch (error) {
      return { ok: false, message: `Provider gateway can't reach the host ${host}: ${(error as Error).message}` };
    }
    const secure = asBoolean(credentials.secure);
    const user = asString(credentials.user);
    const password = asString(credentials.password);
    const tlsOptions = secure && typeof credentials.tlsOptions === 'object' ? (credentials.tlsOptions as Record<string, unknown>) : {};
    const transportOptions: SMTPTransportOptions = {
      host: address,
      port,
      secure,
      name: host,
      requireTLS: asBoolean(credentials.requireTls),
      ignoreTLS: asBoolean(credentials.ignoreTls),
      auth: user && password ? { user, pass: password } : undefined,
      // Certificates name the host, not the address we connect to.
      tls: { ...tlsOptions, servername: host },
      connectionTimeout: TIMEOUT_MS,
      greetingTimeout: TIMEOUT_MS,
      socketTimeout: TIMEOUT_MS,
    };
    const transport = createTransport(transportOptions);
    try {
      await transport.verify();
      return { ok: true };
    } catch (error) {
      return { ok: false, message: (error as Error).message };
    } finally {
      transport.close();
    }
  }
}
