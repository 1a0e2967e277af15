import { lockClaim } from './mongo-indexes';

describe('the index-creation lock', () => {
  it('is taken when absent or expired, for a lease from now', () => {
    const now = new Date('2025-01-01T00:00:00.000Z');
    expect(lockClaim('host:1:ab', now, 120_000)).toEqual({
      filter: { _id: 'indexes', until: { $lt: now } },
      update: { $set: { holder: 'host:1:ab', until: new Date('2025-01-01T00:02:00.000Z') } },
    });
  });
});
