export interface Migration {
  version: number;
  name: string;
  /** Run in one transaction with the record of the version. */
  sql: string;
  /**
   * Run before `sql`, one at a time and outside a transaction: `CREATE INDEX CONCURRENTLY` and `DROP
   * INDEX CONCURRENTLY`, so that writes go on while an index of a large table builds. A crash can stop
   * them half way and they run again from the first, so each must be safe to repeat (drop an index
   * before creating it: a build that failed leaves an invalid one).
   */
  online?: readonly string[];
}
