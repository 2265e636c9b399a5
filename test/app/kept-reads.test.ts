import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createServices } from '../../src/app/create-services.js';
import type { StateStore } from '../../src/store/state-store.js';
import { FileStateStore } from '../../src/store/file-state-store.js';
import { buildDemoTenant } from '../../src/sim/tenants/demo-tenant.js';
import { useTestSimulator } from '../support/simulated-tenant.js';

/** What report 3 keeps between loads, through the application floor and a real file store (docs/contract.md, "Kept between loads"). */
const now = new Date('2026-11-22T09:00:00Z');
const harness = useTestSimulator({ tenant: buildDemoTenant({ now }) });
const settingsReads = () => harness.sim.graph.requests.filter((request) => request.inBatch && request.path.endsWith('/settings'));

async function withStore(work: (store: StateStore, directory: string) => Promise<void>): Promise<void> {
  const directory = await mkdtemp(join(tmpdir(), 'dmhealth-kept-reads-'));
  const store = await FileStateStore.open(directory, { tenant: 'demo-contoso' });
  try {
    await work(store, directory);
  } finally {
    await store.close();
    await rm(directory, { recursive: true, force: true });
  }
}

describe("report 3's policy settings kept in the tenant's state store", () => {
  it('a second load reads the policy list and no settings, and finds the same', async () => {
    await withStore(async (store) => {
      const services = () =>
        createServices({
          connection: { tenantLabel: 'Contoso (demo)', demo: true, tenantKey: 'demo-contoso', graph: harness.client() },
          store,
          loadOptions: { now: () => now },
          log: () => undefined,
        });
      const first = await services().reports.get('security-posture');
      expect(first.error).toBeNull();
      expect(settingsReads().length).toBeGreaterThan(0);
      expect(await store.readCompressed('reads-security-posture-policy-settings')).not.toBeNull();
      harness.sim.graph.clearLog();

      // A new process over the same store, as after a restart or on another instance.
      const second = await services().reports.get('security-posture');
      expect(settingsReads()).toEqual([]);
      expect(harness.sim.graph.requests.some((request) => request.path === '/beta/deviceManagement/configurationPolicies')).toBe(true);
      expect(second.findings.map((finding) => finding.fingerprint).sort()).toEqual(first.findings.map((finding) => finding.fingerprint).sort());
      expect(second.rows).toEqual(first.rows);
    });
  });

  it('a store that cannot be read costs the saving and says so, not the report', async () => {
    await withStore(async (store) => {
      const lines: string[] = [];
      const broken: StateStore = Object.assign(Object.create(store) as StateStore, {
        readCompressed: () => Promise.reject(new Error('disk on fire')),
        writeCompressed: () => Promise.reject(new Error('disk on fire')),
      });
      const services = createServices({
        connection: { tenantLabel: 'Contoso (demo)', demo: true, tenantKey: 'demo-contoso', graph: harness.client() },
        store: broken,
        loadOptions: { now: () => now },
        log: (line) => lines.push(line),
      });
      const result = await services.reports.get('security-posture');
      expect(result.error).toBeNull();
      expect(settingsReads().length).toBeGreaterThan(0);
      expect(lines.filter((line) => line.includes('reads-security-posture-policy-settings'))).toEqual([
        expect.stringContaining('could not read what the last load kept'),
        expect.stringContaining('could not keep this load'),
      ]);
    });
  });
});
