'use strict';
// jest's globalSetup: the run's directory, where test/support/test-run.ts makes what the test files
// share (the service build, a migrated PGlite data directory). Workers inherit the variable.
const { mkdtempSync } = require('node:fs');
const { tmpdir } = require('node:os');
const { join } = require('node:path');

module.exports = () => {
  process.env.NOTIFY_TEST_RUN_DIR = mkdtempSync(join(tmpdir(), 'notify-test-run-'));
};
