import { RankedIntegration, RankingEvent, applyRanking, channelHasPrimary, nextUpdatedAt, primaryAfterConditions, rankChannel } from './primary-rules';

const at = (seconds: number) => new Date(seconds * 1000);
const now = at(1000);
const ranked = (id: string, priority: number, primary = false, created = priority): RankedIntegration => ({
  id,
  priority,
  primary,
  createdAt: at(created),
  updatedAt: at(created),
});
/** The ranking an event leaves, as [id, priority, primary] from the top. */
const after = (active: RankedIntegration[], event: RankingEvent) =>
  applyRanking(active, rankChannel(active, event, now))
    .sort((a, b) => b.priority - a.priority)
    .map((i) => [i.id, i.priority, i.primary]);
const placed = (id: string, mayBecomePrimary = true): RankingEvent => ({ kind: 'placed', id, mayBecomePrimary });
const renumber: RankingEvent = { kind: 'renumber' };

describe('primary rules', () => {
  it('gives only email and sms a primary', () => {
    expect(['email', 'sms'].every((c) => channelHasPrimary(c as never))).toBe(true);
    expect(['in_app', 'chat', 'push'].some((c) => channelHasPrimary(c as never))).toBe(false);
  });

  describe('rankChannel, placing a newly active integration (written with priority 0)', () => {
    it('makes the first active integration of the channel primary with priority 1', () => {
      expect(after([ranked('a', 0)], placed('a'))).toEqual([['a', 1, true]]);
    });

    it('slots a later one under the primary, bumping the primary up', () => {
      expect(after([ranked('a', 1, true), ranked('b', 0)], placed('b'))).toEqual([
        ['a', 2, true],
        ['b', 1, false],
      ]);
    });

    it('puts one on top, not primary, when others are active but none is primary (only the first becomes primary)', () => {
      expect(after([ranked('a', 2), ranked('b', 1), ranked('c', 0)], placed('c'))).toEqual([
        ['c', 3, false],
        ['a', 2, false],
        ['b', 1, false],
      ]);
    });

    it('does not make one primary that may not be (created with conditions, or activated)', () => {
      expect(after([ranked('a', 0)], placed('a', false))).toEqual([['a', 1, false]]);
    });

    it('lets the first of two created together become primary: the other, not ranked yet, is below it', () => {
      expect(after([ranked('a', 0, false, 1), ranked('b', 0, false, 2)], placed('a'))).toEqual([
        ['a', 2, true],
        ['b', 1, false],
      ]);
      // then b's own ranking slots it under the primary
      const afterA = applyRanking(
        [ranked('a', 0, false, 1), ranked('b', 0, false, 2)],
        rankChannel([ranked('a', 0, false, 1), ranked('b', 0, false, 2)], placed('a'), now),
      );
      expect(after(afterA, placed('b'))).toEqual([
        ['a', 2, true],
        ['b', 1, false],
      ]);
    });

    it('places one again under the primary when another ranking has already put it at the bottom', () => {
      expect(after([ranked('a', 3, true), ranked('x', 2), ranked('b', 1, false, 9)], placed('b'))).toEqual([
        ['a', 3, true],
        ['b', 2, false],
        ['x', 1, false],
      ]);
    });
  });

  it('rankChannel, making one the primary: it goes on top, the others lose the flag', () => {
    expect(after([ranked('a', 2, true), ranked('b', 1)], { kind: 'primary', id: 'b' })).toEqual([
      ['b', 2, true],
      ['a', 1, false],
    ]);
  });

  describe('rankChannel, renumbering', () => {
    it('ranks n…1 with the primary on top and answers only what changes, each moved past now', () => {
      const changes = rankChannel([ranked('a', 5), ranked('b', 9, true), ranked('c', 2)], renumber, now);
      expect(changes).toEqual([
        { id: 'b', primary: true, priority: 3, updatedAt: now },
        { id: 'a', primary: false, priority: 2, updatedAt: now },
        { id: 'c', primary: false, priority: 1, updatedAt: now },
      ]);
    });

    it('closes the gap a deactivated or deleted integration leaves', () => {
      expect(rankChannel([ranked('a', 1), ranked('b', 3, true)], renumber, now)).toEqual([{ id: 'b', primary: true, priority: 2, updatedAt: now }]);
    });

    it('keeps one primary: a second one (old data) loses the flag', () => {
      expect(rankChannel([ranked('a', 2, true), ranked('b', 1, true)], renumber, now)).toEqual([{ id: 'b', primary: false, priority: 1, updatedAt: now }]);
    });

    it('breaks ties newest first, and changes nothing when already in order', () => {
      expect(after([ranked('old', 0, false, 1), ranked('new', 0, false, 2)], renumber)).toEqual([
        ['new', 2, false],
        ['old', 1, false],
      ]);
      expect(rankChannel([ranked('a', 2, true), ranked('b', 1)], renumber, now)).toEqual([]);
      expect(rankChannel([], renumber, now)).toEqual([]);
    });

    it('moves an updatedAt later than now past its own', () => {
      const future = { ...ranked('a', 0), updatedAt: at(5000) };
      expect(rankChannel([future], renumber, now)).toEqual([{ id: 'a', primary: false, priority: 1, updatedAt: new Date(at(5000).getTime() + 1) }]);
    });
  });

  it('nextUpdatedAt is now, or just after the time read when that is later', () => {
    expect(nextUpdatedAt(at(10), at(5))).toEqual(at(10));
    expect(nextUpdatedAt(at(5), at(10))).toEqual(new Date(at(10).getTime() + 1));
  });

  it('removes the primary flag when conditions are added', () => {
    expect(primaryAfterConditions(true, 1)).toBe(false);
    expect(primaryAfterConditions(true, 0)).toBe(true);
    expect(primaryAfterConditions(false, 0)).toBe(false);
  });
});
