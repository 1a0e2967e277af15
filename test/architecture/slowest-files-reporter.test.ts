// eslint-disable-next-line @typescript-eslint/no-require-imports
const SlowestFilesReporter = require('../support/slowest-files.reporter.js');

/** What the reporter writes at the end of a run of files that took these many seconds. */
function reportOf(seconds: Record<string, number>): string {
  const testResults = Object.entries(seconds).map(([file, s]) => ({ testFilePath: `/repo/${file}`, perfStats: { start: 1_000, end: 1_000 + s * 1000 } }));
  const written: string[] = [];
  const write = jest.spyOn(process.stderr, 'write').mockImplementation((chunk: string | Uint8Array) => (written.push(String(chunk)), true));
  try {
    new SlowestFilesReporter({ rootDir: '/repo' }).onRunComplete(new Set(), { testResults });
  } finally {
    write.mockRestore();
  }
  return written.join('');
}

describe('the slowest-files reporter', () => {
  it('names the 15 slowest files, slowest first, with their times and the sum of all', () => {
    const seconds = Object.fromEntries(Array.from({ length: 20 }, (_, i) => [`test/f${i}.test.ts`, i + 0.25]));
    const lines = reportOf(seconds).trim().split('\n');
    expect(lines[0]).toBe('Slowest 15 of 20 test file(s), 195 s in all:');
    expect(lines.slice(1)).toHaveLength(15);
    expect(lines[1]).toBe('    19.3 s  test/f19.test.ts');
    expect(lines[15]).toBe('     5.3 s  test/f5.test.ts');
  });

  it('says nothing of a run that ran no file', () => {
    expect(reportOf({})).toBe('');
  });
});
