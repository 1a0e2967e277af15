// One config for unit (libs/**), contract (test/contract) and e2e (test/e2e) suites.
const { compilerOptions } = require('./tsconfig.json');
const moduleNameMapper = {};
for (const [alias, [target]] of Object.entries(compilerOptions.paths)) {
  moduleNameMapper[`^${alias}$`] = `<rootDir>/${target}`;
  moduleNameMapper[`^${alias}/(.*)$`] = `<rootDir>/${target}/$1`;
}
module.exports = {
  rootDir: __dirname,
  testEnvironment: 'node',
  testMatch: ['<rootDir>/libs/**/*.spec.ts', '<rootDir>/apps/**/*.spec.ts', '<rootDir>/test/**/*.test.ts'],
  transform: {
    '^.+\\.ts$': ['@swc/jest', {
      jsc: {
        parser: { syntax: 'typescript', decorators: true },
        transform: { legacyDecorator: true, decoratorMetadata: true },
        target: 'es2022',
      },
      module: { type: 'commonjs' },
    }],
  },
  moduleNameMapper,
  // generous: on a slow afternoon of this 2-core machine an app's start under the full run's load took over 60 s
  testTimeout: 120000,
  setupFiles: ['reflect-metadata'],
  // keeps V8's compiled code of every module for the worker's next file (test/support/code-cache-runtime.js)
  runtime: '<rootDir>/test/support/code-cache-runtime.js',
  // the run's directory, where the files share one service build and one migrated PGlite (test/support/test-run.ts)
  globalSetup: '<rootDir>/test/support/test-run.setup.js',
  globalTeardown: '<rootDir>/test/support/test-run.teardown.js',
  // the default summary, which tests were skipped and why (MongoDB without MONGODB_URL), the slowest files
  reporters: ['default', '<rootDir>/test/support/skipped-tests.reporter.js', '<rootDir>/test/support/slowest-files.reporter.js'],
};
