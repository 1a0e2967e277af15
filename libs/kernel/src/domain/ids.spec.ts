import { deterministicId, isId, newId, timeOrderedDeterministicId } from './ids';

describe('ids', () => {
  it('deterministicId gives the ids every earlier version gave for the same parts (a fan-out redelivered after an upgrade writes nothing twice)', () => {
    expect(deterministicId('env', 'txn-1', 'sub')).toBe('f50d3d55811b368035c0e00f');
    expect(deterministicId('a', 'b')).toBe('0473ef2dc0d324ab659d3580');
    expect(deterministicId('ab')).toBe('f9ca6d378adafba7c7de88d1');
  });

  it('newId is ObjectId-shaped and starts with its creation second', () => {
    const id = newId(Date.parse('2030-01-01T00:00:00Z'));
    expect(isId(id)).toBe(true);
    expect(parseInt(id.slice(0, 8), 16)).toBe(Date.parse('2030-01-01T00:00:00Z') / 1000);
  });

  it('timeOrderedDeterministicId starts with the second it is given and derives the rest from its parts alone', () => {
    const at = new Date('2030-01-01T00:00:00.750Z');
    const id = timeOrderedDeterministicId(at, 'env', 'txn-1', 'sub');
    expect(isId(id)).toBe(true);
    expect(parseInt(id.slice(0, 8), 16)).toBe(Date.parse('2030-01-01T00:00:00Z') / 1000);
    expect(id.slice(8)).toBe(deterministicId('env', 'txn-1', 'sub').slice(0, 16));
    expect(timeOrderedDeterministicId(new Date(at), 'env', 'txn-1', 'sub')).toBe(id);
    expect(timeOrderedDeterministicId(at, 'env', 'txn-1', 'other')).not.toBe(id);
    expect(timeOrderedDeterministicId(at, 'a', 'b')).not.toBe(timeOrderedDeterministicId(at, 'ab'));
    // later seconds sort after, whatever the parts
    expect(timeOrderedDeterministicId(new Date('2030-01-01T00:00:01Z'), 'a') > timeOrderedDeterministicId(at, 'z')).toBe(true);
  });
});
