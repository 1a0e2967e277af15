import { OutageLog } from './outage-log';

describe('OutageLog', () => {
  const setup = () => {
    const lines: string[] = [];
    const log = new OutageLog(
      { warn: (message) => lines.push(`warn ${message}`), log: (message) => lines.push(`log ${message}`) },
      { down: (error) => `down: ${error.message}`, up: 'up' },
    );
    return { lines, log };
  };
  const settle = () => new Promise((resolve) => setImmediate(resolve));

  it('writes one warning per outage and one line at its end, however many calls meet it', async () => {
    const { lines, log } = setup();
    log.watch(Promise.resolve());
    for (let i = 0; i < 5; i++) log.watch(Promise.reject(new Error(`refused ${i}`)));
    await settle();
    log.watch(Promise.resolve());
    log.watch(Promise.resolve());
    await settle();
    log.failed('again');
    log.failed('and again');
    log.succeeded();
    expect(lines).toEqual(['warn down: refused 0', 'log up', 'warn down: again', 'log up']);
  });

  it('is not ended by a call that started before the failure was seen', async () => {
    const { lines, log } = setup();
    let answer!: () => void;
    log.watch(new Promise<void>((resolve) => (answer = resolve)));
    log.watch(Promise.reject(new Error('timed out')));
    await settle();
    answer();
    await settle();
    expect(lines).toEqual(['warn down: timed out']);
    log.watch(Promise.resolve());
    await settle();
    expect(lines).toEqual(['warn down: timed out', 'log up']);
  });

  it('is not started again by a call that started before the outage ended and fails after it', async () => {
    const { lines, log } = setup();
    let timeOut!: (error: Error) => void;
    log.watch(Promise.reject(new Error('refused')));
    await settle();
    log.watch(new Promise((_, reject) => (timeOut = reject)));
    log.succeeded();
    timeOut(new Error('Command timed out'));
    await settle();
    expect(lines).toEqual(['warn down: refused', 'log up']);
    log.watch(Promise.reject(new Error('refused again')));
    await settle();
    expect(lines).toEqual(['warn down: refused', 'log up', 'warn down: refused again']);
  });

  it('logs nothing once ended', async () => {
    const { lines, log } = setup();
    log.end();
    log.watch(Promise.reject(new Error('Connection is closed.')));
    await settle();
    expect(lines).toEqual([]);
  });
});
