import { MONGODB_SKIP_MARK } from '../support/skip-marks';

// eslint-disable-next-line @typescript-eslint/no-require-imports
const SkippedTestsReporter = require('../support/skipped-tests.reporter.js');

/** What the reporter writes at the end of a run with these tests. */
function reportOf(tests: { file: string; ancestorTitles: string[]; title: string; status: string }[]): string {
  const files = [...new Set(tests.map((t) => t.file))].map((file) => ({
    testFilePath: `/repo/${file}`,
    testResults: tests.filter((t) => t.file === file).map((t) => ({ ...t, fullName: [...t.ancestorTitles, t.title].join(' ') })),
  }));
  const written: string[] = [];
  const write = jest.spyOn(process.stderr, 'write').mockImplementation((chunk: string | Uint8Array) => (written.push(String(chunk)), true));
  try {
    new SkippedTestsReporter({ rootDir: '/repo' }).onRunComplete(new Set(), { testResults: files });
  } finally {
    write.mockRestore();
  }
  return written.join('');
}

describe('the skipped-tests reporter', () => {
  it('knows the mark the MongoDB blocks are skipped under', () => {
    expect(SkippedTestsReporter.MONGODB_MARK).toBe(MONGODB_SKIP_MARK);
  });

  it('counts the MongoDB tests skipped, names any other skipped test, and leaves out the ones that ran', () => {
    const report = reportOf([
      { file: 'test/a.test.ts', ancestorTitles: [`jobs on MongoDB ${MONGODB_SKIP_MARK}`], title: 'finds a job', status: 'pending' },
      { file: 'test/a.test.ts', ancestorTitles: [`jobs on MongoDB ${MONGODB_SKIP_MARK}`], title: 'cancels a job', status: 'pending' },
      { file: 'test/b.test.ts', ancestorTitles: [`inbox (mongodb ${MONGODB_SKIP_MARK})`], title: 'lists', status: 'pending' },
      { file: 'test/c.test.ts', ancestorTitles: ['browser'], title: 'renders the inbox', status: 'pending' },
      { file: 'test/c.test.ts', ancestorTitles: ['browser'], title: 'opens', status: 'passed' },
    ]);
    expect(report).toContain('MongoDB store: 3 test(s) in 2 file(s) skipped, because MONGODB_URL is not set.');
    expect(report).toContain('Other skipped tests (1):\n  test/c.test.ts: browser renders the inbox');
    expect(report).not.toContain('opens');
  });

  it('says nothing when nothing was skipped', () => {
    expect(reportOf([{ file: 'test/a.test.ts', ancestorTitles: ['jobs on MongoDB'], title: 'finds a job', status: 'passed' }])).toBe('');
  });
});
