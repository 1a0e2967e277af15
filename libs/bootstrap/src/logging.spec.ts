import { Writable } from 'node:stream';
import pino from 'pino';
import { loadConfig } from '@app/config';
import { loggerOptions } from './logging';

describe('log lines never carry secrets or the values an error held', () => {
  it('serialises errors to kind, message, code and stack; redacts authorization and credential fields', () => {
    const lines: string[] = [];
    const sink = new Writable({ write: (chunk, _encoding, done) => (lines.push(chunk.toString()), done()) });
    const config = loadConfig({ DATA_DIR: '/tmp/notify-logging-spec', LOG_FORMAT: 'json', LOG_LEVEL: 'info' }, false);
    const options = loggerOptions(config).pinoHttp as pino.LoggerOptions;
    const logger = pino(options, sink);

    const storeError = Object.assign(new Error('insert into subscribers failed'), {
      code: '22P02',
      parameters: ['https://hooks.example.com/T/B/SECRET-1'],
      detail: 'SECRET-2',
    });
    logger.error(
      {
        err: storeError,
        headers: { authorization: 'ApiKey SECRET-3' },
        integration: { credentials: { apiKey: 'SECRET-4' } },
        body: { apiKey: 'SECRET-5', tlsOptions: { key: 'SECRET-6' } },
      },
      'boom',
    );

    const [line] = lines;
    expect(line).not.toMatch(/SECRET-\d/);
    expect(JSON.parse(line)).toMatchObject({
      msg: 'boom',
      err: { type: 'Error', message: 'insert into subscribers failed', code: '22P02' },
      headers: { authorization: '****' },
    });
  });
});
