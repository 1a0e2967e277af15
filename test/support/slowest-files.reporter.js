'use strict';
// Names the slowest test files at the end of every run, with their times, so that a file growing
// slow is seen before the whole run is.
const path = require('node:path');

const SHOWN = 15;

class SlowestFilesReporter {
  constructor(globalConfig) {
    this.rootDir = globalConfig.rootDir;
  }

  onRunComplete(_contexts, results) {
    const files = results.testResults
      .filter((file) => file.perfStats && file.perfStats.end > 0)
      .map((file) => ({ name: path.relative(this.rootDir, file.testFilePath), seconds: (file.perfStats.end - file.perfStats.start) / 1000 }))
      .sort((a, b) => b.seconds - a.seconds);
    if (!files.length) return;
    const total = files.reduce((sum, file) => sum + file.seconds, 0);
    const lines = [
      `Slowest ${Math.min(SHOWN, files.length)} of ${files.length} test file(s), ${total.toFixed(0)} s in all:`,
      ...files.slice(0, SHOWN).map((file) => `${file.seconds.toFixed(1).padStart(8)} s  ${file.name}`),
    ];
    process.stderr.write(`\n${lines.join('\n')}\n`);
  }
}

module.exports = SlowestFilesReporter;
