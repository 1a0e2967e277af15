import { existsSync, mkdirSync, mkdtempSync, readFileSync } from 'node:fs';
import { createServer, Server } from 'node:http';
import { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { build } from 'esbuild';
import { Browser, chromium, Page } from 'playwright-core';
import { TestApp, startTestApp, uniqueName } from '../support/test-app';

/**
 * Novu's own Inbox UI from @novu/js, bundled for the browser and mounted on a page this test serves
 * on another origin than the service, in headless Chromium (Debian's /usr/bin/chromium): a trigger
 * appears without a reload, clicking it marks it read, and the unread dot on the bell goes.
 */
const CHROMIUM = process.env.CHROMIUM_PATH || '/usr/bin/chromium';
const ARTEFACTS = join(__dirname, '..', '..', 'artefacts');
jest.setTimeout(120_000);

const describeWithChromium = existsSync(CHROMIUM) ? describe : describe.skip;

describeWithChromium('Novu Inbox UI in Chromium against the service', () => {
  let t: TestApp;
  let apiUrl: string;
  let page: Page;
  let browser: Browser;
  let pageServer: Server;
  let pageUrl: string;

  beforeAll(async () => {
    t = await startTestApp({});
    await t.app.listen(0, '127.0.0.1');
    apiUrl = `http://127.0.0.1:${(t.app.getHttpServer().address() as AddressInfo).port}`;

    const outdir = mkdtempSync(join(tmpdir(), 'inbox-page-'));
    await build({
      entryPoints: [join(__dirname, 'inbox-page.entry.ts')],
      bundle: true,
      format: 'iife',
      platform: 'browser',
      target: 'chrome110',
      outfile: join(outdir, 'inbox.js'),
      logLevel: 'silent',
      define: { 'process.env.NODE_ENV': '"production"' },
    });
    const script = readFileSync(join(outdir, 'inbox.js'));
    const html = `<!doctype html><html><head><meta charset="utf-8"><title>Inbox</title></head>
<body style="font-family: sans-serif; padding: 16px"><div id="inbox"></div><script src="/inbox.js"></script></body></html>`;
    pageServer = createServer((req, res) => {
      if (req.url === '/inbox.js') return res.writeHead(200, { 'content-type': 'text/javascript' }).end(script);
      res.writeHead(200, { 'content-type': 'text/html' }).end(html);
    });
    await new Promise<void>((resolve) => pageServer.listen(0, '127.0.0.1', resolve));
    // another origin than the api: localhost vs 127.0.0.1
    pageUrl = `http://localhost:${(pageServer.address() as AddressInfo).port}/`;

    browser = await chromium.launch({ executablePath: CHROMIUM, headless: true, args: ['--no-sandbox'] });
    page = await browser.newPage({ viewport: { width: 900, height: 800 } });
  }, 120_000);

  afterAll(async () => {
    await browser?.close();
    await new Promise((resolve) => pageServer?.close(resolve));
    await t?.close();
  });

  it('shows a triggered notification without a reload, marks it read, and the unread dot goes', async () => {
    const identifier = (await t.api().get('/v1/environments/me').expect(200)).body.data.identifier;
    const workflow = uniqueName('browser').toLowerCase();
    await t
      .api()
      .post('/v1/workflows')
      .send({ name: workflow, identifier: workflow, active: true, steps: [{ template: { type: 'in_app', content: 'Your order {{payload.order}} shipped' } }] })
      .expect(201);
    const subscriberId = uniqueName('browser');
    const failures: string[] = [];
    page.on('pageerror', (error) => failures.push(error.message));

    await page.goto(pageUrl);
    await page.evaluate(
      ({ identifier, subscriberId, apiUrl }) =>
        (globalThis as any).mountInbox(
          { applicationIdentifier: identifier, subscriber: { subscriberId }, backendUrl: apiUrl, socketUrl: apiUrl },
          (globalThis as any).document.getElementById('inbox'),
        ),
      { identifier, subscriberId, apiUrl },
    );
    const bell = page.locator('.nv-bellContainer').first();
    await bell.waitFor({ state: 'visible', timeout: 30_000 });
    await bell.click();
    await page
      .getByText('No notifications', { exact: false })
      .first()
      .waitFor({ timeout: 30_000 })
      .catch(() => undefined);

    await t
      .api()
      .post('/v1/events/trigger')
      .send({ name: workflow, to: subscriberId, payload: { order: 'A-42' } })
      .expect(201);
    const item = page.getByText('Your order A-42 shipped');
    await item.waitFor({ state: 'visible', timeout: 20_000 });
    await page.locator('.nv-bellDot').first().waitFor({ state: 'visible', timeout: 20_000 });

    mkdirSync(ARTEFACTS, { recursive: true });
    await page.screenshot({ path: join(ARTEFACTS, 'inbox-unread.png') });
    await item.click();
    await page.locator('.nv-bellDot').first().waitFor({ state: 'detached', timeout: 20_000 });
    await page.screenshot({ path: join(ARTEFACTS, 'inbox-read.png') });

    const stored = (await t.api().get(`/v1/messages?subscriberId=${subscriberId}`).expect(200)).body.data[0];
    expect(stored).toMatchObject({ read: true, content: 'Your order A-42 shipped' });
    expect(failures).toEqual([]);
  });
});
