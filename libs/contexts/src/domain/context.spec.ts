import { contextDataProblem, contextVariables, parseContextKey, parseContextPayload } from './context';

describe("a trigger's context", () => {
  it('takes ids and {id, data} by type, sorted by key as notifications record them', () => {
    expect(parseContextPayload({ tenant: { id: 'acme', data: { plan: 'pro' } }, app: 'jira', 'work-space': { id: 'w_1' } })).toEqual({
      entries: [
        { type: 'app', identifier: 'jira' },
        { type: 'tenant', identifier: 'acme', data: { plan: 'pro' } },
        { type: 'work-space', identifier: 'w_1' },
      ],
      problems: {},
    });
    expect(parseContextPayload(undefined)).toEqual({ entries: [], problems: {} });
    expect(parseContextPayload(null)).toEqual({ entries: [], problems: {} });
  });

  it('names each problem by its field', () => {
    expect(parseContextPayload(['tenant']).problems).toEqual({ context: [expect.stringContaining('object')] });
    expect(parseContextPayload({ 'bad type': 'x', tenant: 'a b', app: { id: 3 }, team: { id: 'core', data: [1] }, ok: 'yes' })).toEqual({
      entries: [{ type: 'ok', identifier: 'yes' }],
      problems: {
        'context.bad type': ['a context type must be 1 to 100 letters, digits, "-" or "_"'],
        'context.tenant': ['a context id must be 1 to 100 letters, digits, "-" or "_"'],
        'context.app.id': ['a context id must be 1 to 100 letters, digits, "-" or "_"'],
        'context.team.data': ['data must be an object'],
      },
    });
    expect(parseContextPayload({ tenant: 'x'.repeat(101) }).problems).toHaveProperty(['context.tenant']);
  });

  it('holds data to 64 KB as JSON', () => {
    expect(contextDataProblem({ text: 'x'.repeat(64 * 1024 - 20) })).toBeUndefined();
    expect(contextDataProblem({ text: 'x'.repeat(64 * 1024) })).toMatch(/at most 64 KB/);
  });
});

describe('context keys and variables', () => {
  it('reads `type:id` keys back, refusing what no context has', () => {
    expect(parseContextKey('tenant:acme')).toEqual({ type: 'tenant', identifier: 'acme' });
    for (const key of ['tenant', ':acme', 'tenant:', 'tenant:a:b', 'ten ant:acme']) expect(parseContextKey(key)).toBeUndefined();
  });

  it('gives templates `context.<type>` as {id, data}', () => {
    expect(contextVariables([{ type: 'tenant', identifier: 'acme', data: { plan: 'pro' } }])).toEqual({ tenant: { id: 'acme', data: { plan: 'pro' } } });
  });
});
