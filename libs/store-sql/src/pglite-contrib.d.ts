// The package declares its contrib extensions under `exports` only, which this project's
// `moduleResolution: node` does not read; Node itself resolves the path at run time.
declare module '@electric-sql/pglite/contrib/pg_trgm' {
  import type { Extension } from '@electric-sql/pglite';
  export const pg_trgm: Extension;
}
