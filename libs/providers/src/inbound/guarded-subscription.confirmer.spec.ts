import { createServer, Server } from 'node:http';
import { AddressInfo } from 'node:net';
import { GuardedSubscriptionConfirmer } from './guarded-subscription.confirmer';

/** A loopback server answering each GET with the status its path names (`/200`, `/403`). */
describe('GuardedSubscriptionConfirmer', () => {
  let server: Server;
  const visited: string[] = [];
  let origin: string;
  beforeAll(async () => {
    server = createServer((req, res) => {
      visited.push(`${req.method} ${req.url}`);
      res.writeHead(Number(req.url!.slice(1, 4))).end('<ConfirmSubscriptionResponse/>');
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise((resolve) => server.close(resolve)));
  beforeEach(() => (visited.length = 0));

  it('GETs the URL and confirms on a 2xx answer when the rules allow the target', async () => {
    const confirmer = new GuardedSubscriptionConfirmer(true);
    expect(await confirmer.confirm(`${origin}/200?Action=ConfirmSubscription&Token=t`)).toEqual({ confirmed: true });
    expect(await confirmer.confirm(`${origin}/403`)).toEqual({ confirmed: false, error: 'HTTP 403' });
    expect(visited).toEqual(['GET /200?Action=ConfirmSubscription&Token=t', 'GET /403']);
  });

  it('never reaches a loopback target when private targets are not allowed, nor cloud metadata at all', async () => {
    const outcome = await new GuardedSubscriptionConfirmer(false).confirm(`${origin}/200`);
    expect(outcome.confirmed).toBe(false);
    expect(outcome.error).toBeDefined();
    expect((await new GuardedSubscriptionConfirmer(true).confirm('http://169.254.169.254/latest/meta-data/')).confirmed).toBe(false);
    expect(visited).toEqual([]);
  });
});
