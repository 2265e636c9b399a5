import { describe, expect, it } from 'vitest';
import { buildDemoTenant } from '../../src/sim/tenants/demo-tenant.js';
import { useRawGraph } from '../support/simulated-tenant.js';

/** The simulator's resources for report 3's completeness and baselines: a policy's /settings, and the settings catalog templates. */

const tenant = buildDemoTenant({ now: new Date('2026-11-22T09:00:00Z') });
const graph = useRawGraph(tenant);

const raw = (pathOrUrl: string) => graph.get(pathOrUrl);
async function all(path: string): Promise<{ items: Array<Record<string, unknown>>; pages: number[] }> {
  const items: Array<Record<string, unknown>> = [];
  const pages: number[] = [];
  for (let next: string | undefined = path; next;) {
    const { status, body } = await raw(next);
    expect(status).toBe(200);
    items.push(...(body.value ?? []));
    pages.push(body.value?.length ?? 0);
    next = body['@odata.nextLink'];
  }
  return { items, pages };
}

const policy = (name: string) => tenant.collections.configurationPolicies.find((record) => record.name === name)!;

describe("a settings catalog policy's /settings", () => {
  it('pages at 25 whatever $top asks, and holds every setting once the nextLinks are followed', async () => {
    const full = policy('Defender - Full configuration');
    const { items, pages } = await all(`/beta/deviceManagement/configurationPolicies/${full.id}/settings?$top=999`);
    expect(pages).toEqual([25, 15]);
    expect(items.map((item) => item.id)).toEqual((full.settings as Array<{ id: string }>).map((setting) => setting.id));
    expect(full.settingCount).toBe(40);
  });

  it('is beta only, and answers 404 for a policy the tenant does not hold', async () => {
    const full = policy('Defender - Full configuration');
    expect((await raw(`/v1.0/deviceManagement/configurationPolicies/${full.id}/settings`)).status).toBe(400);
    expect((await raw('/beta/deviceManagement/configurationPolicies/0f8fad5b-d9cb-469f-a165-70867728950e/settings')).status).toBe(404);
  });

  it("an expanded policy carries at most 25 settings, then a settings@odata.nextLink to the policy's /settings", async () => {
    const full = policy('Defender - Full configuration');
    const { items } = await all('/beta/deviceManagement/configurationPolicies?$expand=settings');
    const expanded = items.find((item) => item.id === full.id)!;
    expect((expanded.settings as unknown[]).length).toBe(25);
    const link = expanded['settings@odata.nextLink'] as string;
    expect(new URL(link).pathname).toBe(`/beta/deviceManagement/configurationPolicies/${full.id}/settings`);
    const rest = await all(link);
    expect(rest.items.length).toBe(15);
    const small = items.find((item) => item.id === policy('Firewall - Lab').id)!;
    expect(small['settings@odata.nextLink']).toBeUndefined();
  });
});

describe('the settings catalog templates', () => {
  it("serve the baseline family under $filter=templateFamily eq 'baseline', paged, with the real ids and lifecycle states", async () => {
    const { items, pages } = await all("/beta/deviceManagement/configurationPolicyTemplates?$filter=templateFamily eq 'baseline'");
    expect(pages.length).toBeGreaterThan(1);
    const byId = new Map(items.map((item) => [item.id, item]));
    expect(byId.get('66df8dce-0166-4b82-92f7-1f74e3ca17a3_1')).toMatchObject({
      displayVersion: '23H2',
      lifecycleState: 'superseded',
      version: 1,
      baseId: '66df8dce-0166-4b82-92f7-1f74e3ca17a3',
    });
    expect(byId.get('66df8dce-0166-4b82-92f7-1f74e3ca17a3_3')).toMatchObject({ displayVersion: 'November 2021', lifecycleState: 'superseded' });
    expect(byId.get('66df8dce-0166-4b82-92f7-1f74e3ca17a3_5')).toMatchObject({ displayVersion: '25H2', lifecycleState: 'active' });
    expect(byId.get('49b8320f-e179-472e-8e2c-2fde00289ca2_1')).toMatchObject({ displayVersion: '24H1', lifecycleState: 'active' });
    expect(items.some((item) => item.technologies === 'extensibility')).toBe(true);
    expect(items.every((item) => item.templateFamily === 'baseline')).toBe(true);
  });

  it('refuse another filter, and are beta only', async () => {
    expect((await raw("/beta/deviceManagement/configurationPolicyTemplates?$filter=lifecycleState eq 'active'")).status).toBe(400);
    expect((await raw("/beta/deviceManagement/configurationPolicyTemplates?$filter=startswith(displayName,'Security')")).status).toBe(400);
    expect((await raw('/v1.0/deviceManagement/configurationPolicyTemplates')).status).toBe(400);
  });
});
