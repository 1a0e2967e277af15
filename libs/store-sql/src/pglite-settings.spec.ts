import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createSqlClient } from './sql-client';

describe('PGlite settings', () => {
  it('keeps 16 MB of shared buffers in a new data directory and after a restart on it, whatever its postgresql.conf says', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'notify-pglite-settings-'));
    try {
      for (const start of ['first', 'restart']) {
        const client = await createSqlClient({ dataDir });
        try {
          expect({ start, rows: await client.query('SHOW shared_buffers') }).toEqual({ start, rows: [{ shared_buffers: '16MB' }] });
        } finally {
          await client.close();
        }
      }
      expect(readFileSync(join(dataDir, 'postgresql.conf'), 'utf8')).toMatch(/^shared_buffers = 128MB/m); // initdb's choice
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
