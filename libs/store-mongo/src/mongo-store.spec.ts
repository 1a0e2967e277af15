import { runsTransactions } from './mongo-store';

describe('runsTransactions', () => {
  it('accepts a replica set member (single-node included) and a mongos router', () => {
    expect(runsTransactions({ setName: 'rs0' })).toBe(true);
    expect(runsTransactions({ msg: 'isdbgrid' })).toBe(true);
  });

  it('refuses a standalone server, which cannot run transactions', () => {
    expect(runsTransactions({ msg: undefined })).toBe(false);
  });
});
