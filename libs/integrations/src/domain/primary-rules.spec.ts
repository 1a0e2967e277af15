import {
  RankedIntegration,
  channelHasPrimary,
  placeOnActivation,
  placeOnCreate,
  placeOnDeactivation,
  primaryAfterConditions,
  renumberPriorities,
} from './primary-rules';

const at = (seconds: number) => new Date(seconds * 1000);
const ranked = (id: string, priority: number, primary = false, created = priority): RankedIntegration => ({
  id,
  priority,
  primary,
  createdAt: at(created),
});

describe('primary rules', () => {
  it('gives only email and sms a primary', () => {
    expect(['email', 'sms'].every((c) => channelHasPrimary(c as never))).toBe(true);
    expect(['in_app', 'chat', 'push'].some((c) => channelHasPrimary(c as never))).toBe(false);
  });

  describe('placeOnCreate', () => {
    it('makes the first active email integration primary with priority 1', () => {
      expect(placeOnCreate({ channel: 'email', active: true, hasConditions: false }, [])).toEqual({ primary: true, priority: 1, changes: [] });
    });

    it('slots a later active one under the primary, bumping the primary up', () => {
      const placement = placeOnCreate({ channel: 'sms', active: true, hasConditions: false }, [ranked('a', 1, true)]);
      expect(placement).toEqual({ primary: false, priority: 1, changes: [{ id: 'a', primary: true, priority: 2 }] });
    });

    it('puts a new one on top, not primary, when others are active but none is primary (only the first active one becomes primary)', () => {
      const placement = placeOnCreate({ channel: 'email', active: true, hasConditions: false }, [ranked('a', 2), ranked('b', 1)]);
      expect(placement).toEqual({ primary: false, priority: 3, changes: [] });
    });

    it('never ranks inactive integrations or channels without a primary', () => {
      const none = { primary: false, priority: 0, changes: [] };
      expect(placeOnCreate({ channel: 'email', active: false, hasConditions: false }, [])).toEqual(none);
      expect(placeOnCreate({ channel: 'chat', active: true, hasConditions: false }, [])).toEqual(none);
      expect(placeOnCreate({ channel: 'push', active: true, hasConditions: false }, [ranked('a', 1, true)])).toEqual(none);
      expect(placeOnCreate({ channel: 'in_app', active: true, hasConditions: false }, [])).toEqual(none);
    });

    it('does not make an integration with conditions primary', () => {
      expect(placeOnCreate({ channel: 'email', active: true, hasConditions: true }, [])).toEqual({ primary: false, priority: 1, changes: [] });
    });
  });

  describe('placeOnActivation', () => {
    it('recomputes the priority and keeps the primary flag', () => {
      expect(placeOnActivation('email', false, [])).toEqual({ primary: false, priority: 1, changes: [] });
      expect(placeOnActivation('email', false, [ranked('a', 1, true)])).toEqual({
        primary: false,
        priority: 1,
        changes: [{ id: 'a', primary: true, priority: 2 }],
      });
      expect(placeOnActivation('sms', false, [ranked('a', 3)])).toEqual({ primary: false, priority: 4, changes: [] });
    });

    it('leaves channels without a primary unranked', () => {
      expect(placeOnActivation('chat', false, [ranked('a', 1)])).toEqual({ primary: false, priority: 0, changes: [] });
    });
  });

  it('clears primary and priority on deactivation', () => {
    expect(placeOnDeactivation()).toEqual({ primary: false, priority: 0, changes: [] });
  });

  it('removes the primary flag when conditions are added', () => {
    expect(primaryAfterConditions(true, 1)).toBe(false);
    expect(primaryAfterConditions(true, 0)).toBe(true);
    expect(primaryAfterConditions(false, 0)).toBe(false);
  });

  describe('renumberPriorities', () => {
    it('ranks n…1 with the primary on top and answers only what changes', () => {
      const changes = renumberPriorities([ranked('a', 5), ranked('b', 9, true), ranked('c', 2)]);
      expect(changes).toEqual([
        { id: 'b', primary: true, priority: 3 },
        { id: 'a', primary: false, priority: 2 },
        { id: 'c', primary: false, priority: 1 },
      ]);
    });

    it('closes the gap a deactivated integration leaves', () => {
      // c (priority 2) was deactivated out of a, b(primary), c.
      expect(renumberPriorities([ranked('a', 1), ranked('b', 3, true)])).toEqual([{ id: 'b', primary: true, priority: 2 }]);
    });

    it('keeps one primary: a second one (old data) loses the flag', () => {
      expect(renumberPriorities([ranked('a', 2, true), ranked('b', 1, true)])).toEqual([{ id: 'b', primary: false, priority: 1 }]);
      expect(renumberPriorities([ranked('a', 2, true), ranked('b', 2)])).toEqual([{ id: 'b', primary: false, priority: 1 }]);
    });

    it('breaks ties newest first and changes nothing when already in order', () => {
      expect(renumberPriorities([ranked('old', 0, false, 1), ranked('new', 0, false, 2)])).toEqual([
        { id: 'new', primary: false, priority: 2 },
        { id: 'old', primary: false, priority: 1 },
      ]);
      expect(renumberPriorities([ranked('a', 2, true), ranked('b', 1)])).toEqual([]);
      expect(renumberPriorities([])).toEqual([]);
    });
  });
});
