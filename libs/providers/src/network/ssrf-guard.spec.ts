import { assertPublicTarget, isNonPublicAddress, pinnedLookup, SsrfBlockedError } from './ssrf-guard';

const deny = { allowPrivate: false };

describe('isNonPublicAddress', () => {
  it.each([
    '127.0.0.1',
    '127.1.2.3',
    '10.0.0.1',
    '172.16.5.4',
    '172.31.255.255',
    '192.168.1.1',
    '169.254.169.254', // cloud metadata
    '169.254.0.1',
    '100.64.0.1', // CGNAT
    '0.0.0.0',
    '224.0.0.1', // multicast
    '239.255.255.250',
    '255.255.255.255',
    '240.0.0.1',
    '192.0.2.1',
    '198.18.0.1',
    '::',
    '::1',
    '::ffff:127.0.0.1',
    '::ffff:7f00:1',
    '::ffff:8.8.8.8', // IPv4-mapped: refused whatever it embeds
    '64:ff9b::a00:1',
    'fe80::1',
    'fc00::1',
    'fd00:ec2::254', // AWS metadata over IPv6
    'ff02::1',
    '2001:db8::1',
    'not-an-ip',
  ])('refuses %s', (address) => {
    expect(isNonPublicAddress(address)).toBe(true);
  });

  it.each(['8.8.8.8', '1.1.1.1', '93.184.216.34', '172.32.0.1', '100.128.0.1', '2606:4700:4700::1111', '2a00:1450:4001:80b::200e'])('allows %s', (address) => {
    expect(isNonPublicAddress(address)).toBe(false);
  });
});

describe('assertPublicTarget', () => {
  it('allows only http and https', async () => {
    for (const url of ['ftp://example.com/x', 'file:///etc/passwd', 'gopher://example.com', 'javascript:alert(1)']) {
      await expect(assertPublicTarget(url, deny)).rejects.toBeInstanceOf(SsrfBlockedError);
    }
    await expect(assertPublicTarget('not a url', deny)).rejects.toThrow('not a valid URL');
  });

  it('refuses private IP literals, in every spelling the URL parser accepts', async () => {
    for (const url of [
      'http://127.0.0.1/',
      'http://2130706433/',
      'http://0x7f.1/',
      'http://[::1]:8080/',
      'http://[::ffff:127.0.0.1]/',
      'http://169.254.169.254/latest/meta-data',
      'https://10.1.2.3/',
    ]) {
      await expect(assertPublicTarget(url, deny)).rejects.toBeInstanceOf(SsrfBlockedError);
    }
  });

  it('resolves names and refuses when any address is private', async () => {
    const lookup = async (host: string) =>
      host === 'mixed.test'
        ? [
            { address: '93.184.216.34', family: 4 as const },
            { address: '10.0.0.5', family: 4 as const },
          ]
        : host === 'public.test'
          ? [{ address: '93.184.216.34', family: 4 as const }]
          : [{ address: '169.254.169.254', family: 4 as const }];
    await expect(assertPublicTarget('http://mixed.test/', { ...deny, lookup })).rejects.toThrow('non-public address 10.0.0.5');
    await expect(assertPublicTarget('http://metadata.test/', { ...deny, lookup })).rejects.toBeInstanceOf(SsrfBlockedError);
    const target = await assertPublicTarget('https://public.test:8443/a?b=1', { ...deny, lookup });
    expect(target.hostname).toBe('public.test');
    expect(target.addresses).toEqual([{ address: '93.184.216.34', family: 4 }]);
  });

  it('refuses localhost through real DNS resolution', async () => {
    await expect(assertPublicTarget('http://localhost:1234/', deny)).rejects.toBeInstanceOf(SsrfBlockedError);
  });

  it('lets private targets through when allowed', async () => {
    const target = await assertPublicTarget('http://localhost:1234/', { allowPrivate: true });
    expect(target.addresses.length).toBeGreaterThan(0);
    await expect(assertPublicTarget('http://127.0.0.1/', { allowPrivate: true })).resolves.toMatchObject({ hostname: '127.0.0.1' });
  });

  it('refuses cloud metadata addresses even when private targets are allowed', async () => {
    for (const url of ['http://169.254.169.254/latest/meta-data', 'http://[fd00:ec2::254]/', 'http://[::ffff:169.254.169.254]/', 'http://100.100.100.200/']) {
      await expect(assertPublicTarget(url, { allowPrivate: true })).rejects.toThrow('cloud metadata address');
    }
  });

  it('fails name resolution with a network error code, not a block', async () => {
    const lookup = async () => {
      throw Object.assign(new Error('nope'), { code: 'ENOTFOUND' });
    };
    await expect(assertPublicTarget('http://nowhere.test/', { ...deny, lookup })).rejects.toMatchObject({ code: 'ENOTFOUND' });
  });
});

describe('pinnedLookup', () => {
  it('answers the checked address whatever name is asked', async () => {
    const lookup = pinnedLookup({
      url: new URL('http://x.test'),
      hostname: 'x.test',
      addresses: [
        { address: '93.184.216.34', family: 4 },
        { address: '2606:4700::1', family: 6 },
      ],
    });
    const single = await new Promise((resolve) => lookup('evil.test', {}, (_e, address, family) => resolve([address, family])));
    expect(single).toEqual(['93.184.216.34', 4]);
    const all = await new Promise((resolve) => lookup('evil.test', { all: true }, (_e, address) => resolve(address)));
    expect(all).toEqual([
      { address: '93.184.216.34', family: 4 },
      { address: '2606:4700::1', family: 6 },
    ]);
  });
});
