'use strict';
// Says at the end of every run which tests were skipped and why. Jest's default reporter counts
// skipped tests but names them only in a verbose run, so a run without MONGODB_URL would otherwise
// end with a bare "393 skipped".
const path = require('node:path');

/** MONGODB_SKIP_MARK of test/support/skip-marks.ts (this file is loaded untranspiled; a test holds the two equal). */
const MONGODB_MARK = '(set MONGODB_URL to run)';

class SkippedTestsReporter {
  constructor(globalConfig) {
    this.rootDir = globalConfig.rootDir;
  }

  onRunComplete(_contexts, results) {
    const mongoFiles = new Set();
    let mongoTests = 0;
    const others = [];
    for (const file of results.testResults) {
      for (const test of file.testResults) {
        if (test.status !== 'pending' && test.status !== 'skipped') continue;
        if (test.ancestorTitles.some((title) => title.includes(MONGODB_MARK))) {
          mongoTests++;
          mongoFiles.add(file.testFilePath);
        } else {
          others.push(`${path.relative(this.rootDir, file.testFilePath)}: ${test.fullName}`);
        }
      }
    }
    const lines = [];
    if (mongoTests) {
      lines.push(
        `MongoDB store: ${mongoTests} test(s) in ${mongoFiles.size} file(s) skipped, because MONGODB_URL is not set. ` +
          'They run the MongoDB adapter through the same contract and e2e suites as PGlite and PostgreSQL; set MONGODB_URL to a MongoDB replica set to run them.',
      );
    }
    if (others.length) lines.push(`Other skipped tests (${others.length}):`, ...others.map((name) => `  ${name}`));
    if (lines.length) process.stderr.write(`\n${lines.join('\n')}\n`);
  }
}

SkippedTestsReporter.MONGODB_MARK = MONGODB_MARK;
module.exports = SkippedTestsReporter;
