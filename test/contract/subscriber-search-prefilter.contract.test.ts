import { EnvironmentScope, newId } from '@app/kernel';
import { Subscriber, SubscriberSearch, SubscriberSearchFilter } from '@app/subscribers';
import { SqlClient } from '@app/store-sql';
import { SqlSubscriberRepository } from '../../libs/store-sql/src/subscribers';
import { TrigramStatistics, prefilterPattern } from '../../libs/store-sql/src/subscribers/trigram-prefilter';
import { SQL_STORES } from '../support/sql-stores';

/**
 * The SQL stores' searches once ANALYZE has seen trigrams shared by most subscribers (as the bench's
 * "First<i> Last<i % 1000>"): the pattern they give the index first leaves those out, and the answers
 * stay those of the plain substring match.
 */
describe.each(SQL_STORES)('subscriber search with trigram statistics on $name', (store) => {
  let sql: SqlClient;
  let repository: SqlSubscriberRepository;
  const env: EnvironmentScope = { organizationId: 'org-1', environmentId: newId() };
  const seeded: { subscriberId: string; name: string; email: string; phone: string }[] = [];

  beforeAll(async () => {
    sql = await store.open();
    const writer = new SqlSubscriberRepository(sql);
    let clock = Date.parse('2025-01-01T00:00:00Z');
    const add = async (subscriberId: string, changes: { firstName?: string; lastName?: string; email: string; phone: string }) => {
      const now = new Date((clock += 1000));
      await writer.upsert(env, { id: newId(now.getTime()), subscriberId, changes, now });
      seeded.push({ subscriberId, name: [changes.firstName ?? '', changes.lastName ?? ''].join(' ').trim(), email: changes.email, phone: changes.phone });
    };
    for (let i = 1; i <= 60; i++) {
      await add(`m${i}`, { firstName: `Member${i}`, lastName: `Team${i % 3}`, email: `member${i}@corp.example`, phone: `+44700${String(i).padStart(4, '0')}` });
    }
    await add('ada', { firstName: 'Ada', lastName: 'Lovelace', email: 'ada@corp.example', phone: '+447001' });
    await add('sale', { firstName: '50%', lastName: 'Off_Member', email: 'sale\\50@corp.example', phone: '+447002' });
    await add('solo', { lastName: 'Member7', email: 'solo@corp.example', phone: '+447003' });
    await sql.exec('ANALYZE subscribers');
    // A repository made after ANALYZE, so its first search reads the statistics.
    repository = new SqlSubscriberRepository(sql);
  });
  afterAll(() => sql.close());

  const page = (filter: SubscriberSearchFilter, overrides: Partial<SubscriberSearch> = {}): SubscriberSearch => ({
    limit: 100,
    includeCursor: false,
    orderDirection: 'DESC',
    orderBy: '_id',
    filter,
    ...overrides,
  });
  const ids = (items: Subscriber[]) => items.map((s) => s.subscriberId).sort();
  const expected = (field: 'name' | 'email' | 'phone', value: string) =>
    seeded
      .filter((s) => s[field].toLowerCase().includes(value.toLowerCase()))
      .map((s) => s.subscriberId)
      .sort();

  it('reads which trigrams are common from the statistics migration 24 made', async () => {
    const common = await new TrigramStatistics(sql, ['subscribers_name_trigrams']).commonIn('subscribers_name_trigrams');
    expect(['mem', 'emb', '  t', 'tea'].map(common)).toEqual([true, true, true, true]);
    expect(['lov', 'zzz'].map(common)).toEqual([false, false]);
    // Searches below that leave common trigrams out: "r12 " is all that is selective in them (Team0 is a third of the names).
    expect(['Member12 Team0', 'MEMBER12 T', 'r12 team', 'ada love'].map((value) => prefilterPattern(value, common))).toEqual([
      '%r12 %',
      '%R12 %',
      '%r12 %',
      null,
    ]);
  });

  it.each([
    ['name', 'Member12 Team0'],
    ['name', 'member1'],
    ['name', 'MEMBER12 T'],
    ['name', 'r12 team'],
    ['name', 'ber5'],
    ['name', 'team'],
    ['name', 'ada love'],
    ['name', '50% off_'],
    ['name', '50_'],
    ['name', 'member7'],
    ['email', 'member33@corp'],
    ['email', 'e\\50@'],
    ['phone', '700003'],
  ] as const)('%s %j: the answers of the plain substring match', async (field, value) => {
    const found = await repository.search(env, page({ [field]: value }));
    expect({ value, ids: ids(found.items), totalCount: found.totalCount }).toEqual({
      value,
      ids: expected(field, value),
      totalCount: expected(field, value).length,
    });
  });

  it('pages through a broad match by cursor, each subscriber once', async () => {
    const seen: string[] = [];
    let after: string | undefined;
    for (let pages = 0; pages < 20; pages++) {
      const found = await repository.search(env, page({ name: 'member1' }, { limit: 4, ...(after ? { after } : {}) }));
      seen.push(...found.items.map((s) => s.subscriberId));
      if (!found.next) break;
      after = found.next;
    }
    expect(seen.sort()).toEqual(expected('name', 'member1'));
  });
});
