import { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';
import type { Integration } from '@app/integrations';
import { NodemailerChecker } from './nodemailer.checker';

const integration = (credentials: Integration['credentials']): Integration => ({
  id: 'i',
  organizationId: 'o',
  environmentId: 'e',
  name: 'SMTP',
  identifier: 'smtp',
  providerId: 'nodemailer',
  channel: 'email',
  credentials,
  configurations: {},
  active: true,
  primary: false,
  priority: 0,
  conditions: [],
  deleted: false,
  createdAt: new Date(),
  updatedAt: new Date(),
});

describe('NodemailerChecker against a real SMTP server', () => {
  let server: SMTPServer;
  let port: number;
  beforeAll(async () => {
    server = new SMTPServer({
      authOptional: false,
      disabledCommands: ['STARTTLS'],
      onAuth(auth, _session, callback) {
        if (auth.username === 'mailer' && auth.password === 'right-password') return callback(null, { user: auth.username });
        return callback(new Error('Invalid username or password'));
      },
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    port = (server.server.address() as AddressInfo).port;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  const allowed = new NodemailerChecker({ allowPrivateNetworkTargets: true });

  it('passes with the right login', async () => {
    const result = await allowed.check(integration({ host: '127.0.0.1', port: String(port), user: 'mailer', password: 'right-password', ignoreTls: true }));
    expect(result).toEqual({ ok: true });
  });

  it("fails with the server's words on a bad login", async () => {
    const result = await allowed.check(integration({ host: '127.0.0.1', port: String(port), user: 'mailer', password: 'wrong', ignoreTls: true }));
    expect(result.ok).toBe(false);
    expect(result.message).toMatch(/Invalid username or password|535/);
  });

  it('fails when nothing listens on the port', async () => {
    const closed = new SMTPServer({ disabledCommands: ['STARTTLS'] });
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const freePort = (closed.server.address() as AddressInfo).port;
    await new Promise<void>((resolve) => closed.close(() => resolve()));
    const result = await allowed.check(integration({ host: '127.0.0.1', port: String(freePort) }));
    expect(result.ok).toBe(false);
    expect(result.message).toMatch(/ECONNREFUSED|connect/i);
  });

  it('refuses private addresses unless the deployment allows them', async () => {
    const guarded = new NodemailerChecker({ allowPrivateNetworkTargets: false });
    const result = await guarded.check(integration({ host: '127.0.0.1', port: String(port), user: 'mailer', password: 'right-password' }));
    expect(result).toEqual({ ok: false, message: expect.stringContaining('non-public address 127.0.0.1') });
  });

  it('needs a host and a valid port', async () => {
    expect((await allowed.check(integration({ port: '25' }))).ok).toBe(false);
    expect((await allowed.check(integration({ host: '127.0.0.1', port: 'x' }))).ok).toBe(false);
  });
});
