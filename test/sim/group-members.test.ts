import { describe, expect, it } from 'vitest';
import { blankTenant, useRawGraph } from '../support/simulated-tenant.js';

/**
 * `GET /groups/{id}/members` as Graph documents it (learn.microsoft.com/graph/api/group-list-members):
 * directory objects with their `@odata.type`, members of types the app may not read with their id
 * only, pages of 100 by default and `$top` up to 999, a hidden membership empty to an app without
 * Member.Read.Hidden, 404 for a group the directory does not have.
 */
const GROUP = '44444444-4444-4444-8444-444444444444';
const NESTED = '55555555-5555-4555-8555-555555555555';
const HIDDEN = '66666666-6666-4666-8666-666666666666';
const FAULTY = '77777777-7777-4777-8777-777777777777';
const MISSING = '88888888-8888-4888-8888-888888888888';
const userId = (index: number) => `00000000-0000-4000-8000-${String(index).padStart(12, '0')}`;

const tenant = blankTenant();
tenant.groups.set(GROUP, {
  id: GROUP,
  displayName: 'Big group',
  members: [
    ...Array.from({ length: 150 }, (_, index) => ({ id: userId(index), type: 'user' as const })),
    { id: NESTED, type: 'group' },
    { id: 'dddddddd-dddd-4ddd-8ddd-dddddddddddd', type: 'device' },
  ],
});
tenant.groups.set(NESTED, { id: NESTED, displayName: 'Nested', members: [] });
tenant.groups.set(HIDDEN, { id: HIDDEN, displayName: 'Hidden', visibility: 'HiddenMembership', members: [{ id: userId(1), type: 'user' }] });
tenant.groups.set(FAULTY, { id: FAULTY, displayName: 'Faulty', members: [{ id: userId(1), type: 'user' }], membersFault: 500 });
const graph = useRawGraph(tenant);

type Page = { value: Array<Record<string, unknown>>; '@odata.nextLink'?: string };

describe('GET /groups/{id}/members', () => {
  it('pages the direct members, 100 by default, each with its @odata.type and id only', async () => {
    const first = await graph.get(`/v1.0/groups/${GROUP}/members?$select=id,displayName`);
    expect(first.status).toBe(200);
    const page = first.body as unknown as Page;
    expect(page.value).toHaveLength(100);
    expect(page.value[0]).toEqual({ '@odata.type': '#microsoft.graph.user', id: userId(0), displayName: null });
    const second = (await graph.get(page['@odata.nextLink']!)).body as unknown as Page;
    expect(second.value.map((item) => item['@odata.type'])).toContain('#microsoft.graph.group');
    expect(second.value.at(-1)).toMatchObject({ '@odata.type': '#microsoft.graph.device' });
    expect(second['@odata.nextLink']).toBeUndefined();
  });

  it('takes $top up to 999 and refuses more', async () => {
    expect(((await graph.get(`/v1.0/groups/${GROUP}/members?$top=999`)).body as unknown as Page).value).toHaveLength(152);
    expect((await graph.get(`/v1.0/groups/${GROUP}/members?$top=1000`)).status).toBe(400);
  });

  it('shows a hidden membership as empty, answers 404 for a group it does not have, and a planted fault as its status', async () => {
    expect(((await graph.get(`/v1.0/groups/${HIDDEN}/members`)).body as unknown as Page).value).toEqual([]);
    expect((await graph.get(`/v1.0/groups/${MISSING}/members`)).status).toBe(404);
    expect((await graph.get(`/v1.0/groups/${FAULTY}/members`)).status).toBe(500);
  });
});
