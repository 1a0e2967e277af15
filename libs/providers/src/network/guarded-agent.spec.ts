import { request } from 'node:http';
import { LoopbackReceiver } from '../testing/loopback-receiver';
import { assertVendorEndpoint, guardedAgents, guardedLookup } from './guarded-agent';

function lookup(allowPrivate: boolean, hostname: string): Promise<string> {
  return new Promise((resolve, reject) => guardedLookup(allowPrivate)(hostname, {}, (error, address) => (error ? reject(error) : resolve(address as string))));
}

describe('guarded lookup and agents', () => {
  it('refuses names that resolve to non-public addresses unless private targets are allowed', async () => {
    await expect(lookup(false, 'localhost')).rejects.toThrow(/non-public address (127\.0\.0\.1|::1)/);
    await expect(lookup(true, 'localhost')).resolves.toMatch(/^(127\.0\.0\.1|::1)$/);
  });

  it('an agent connection to a refused name never reaches the server', async () => {
    const receiver = await LoopbackReceiver.start();
    try {
      const send = (allowPrivate: boolean) =>
        new Promise<number>((resolve, reject) => {
          const req = request({ host: 'localhost', port: receiver.port, path: '/', agent: guardedAgents(allowPrivate).http, family: 4 }, (res) => {
            res.resume();
            resolve(res.statusCode ?? 0);
          });
          req.on('error', reject);
          req.end();
        });
      await expect(send(false)).rejects.toThrow('non-public address 127.0.0.1');
      expect(receiver.requests).toHaveLength(0);
      await expect(send(true)).resolves.toBe(200);
    } finally {
      await receiver.close();
    }
  });

  it('literal endpoints are checked up front', async () => {
    await expect(assertVendorEndpoint('http://127.0.0.1:9/', false)).rejects.toThrow('non-public address 127.0.0.1');
    await expect(assertVendorEndpoint('http://169.254.169.254/', true)).rejects.toThrow('cloud metadata address');
    await expect(assertVendorEndpoint('http://127.0.0.1:9/', true)).resolves.toBeUndefined();
    await expect(assertVendorEndpoint('https://email.eu-west-1.amazonaws.com', false)).resolves.toBeUndefined();
  });
});
