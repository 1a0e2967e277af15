import { leaveOutFirstJobDefaults } from './sql-job.repository';

describe('leaveOutFirstJobDefaults', () => {
  it('leaves out attempts 0 and empty overrides, the values FIRST_JOB_ROWS reads back for a missing key', () => {
    expect(leaveOutFirstJobDefaults({ id: 'j', attempts: 0, overrides: {} })).toEqual({ id: 'j', attempts: undefined, overrides: undefined });
    expect(JSON.stringify(leaveOutFirstJobDefaults({ id: 'j', attempts: 0, overrides: {} }))).toBe('{"id":"j"}');
  });

  it('keeps any other value', () => {
    const row = { id: 'j', attempts: 2, overrides: { in_app: { title: 'x' } } };
    expect(leaveOutFirstJobDefaults({ ...row })).toEqual(row);
    expect(leaveOutFirstJobDefaults({ id: 'j', attempts: 1, overrides: [] })).toEqual({ id: 'j', attempts: 1, overrides: [] });
  });
});
