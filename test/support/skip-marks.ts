/**
 * What the title of a block skipped for want of a MongoDB ends with (describeMongoContract,
 * describeEachStore): test/support/skipped-tests.reporter.js counts the tests under it.
 */
export const MONGODB_SKIP_MARK = '(set MONGODB_URL to run)';
