'use strict';
// jest's globalTeardown: removes the run's directory (test-run.setup.js).
const { rmSync } = require('node:fs');

module.exports = () => {
  if (process.env.NOTIFY_TEST_RUN_DIR) rmSync(process.env.NOTIFY_TEST_RUN_DIR, { recursive: true, force: true });
};
