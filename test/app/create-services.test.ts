import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createServices } from '../../src/app/create-services.js';
import type { GraphReader } from '../../src/core/graph/graph-reader.js';
import { FileStateStore } from '../../src/store/file-state-store.js';
import { reportResult } from '../fixtures/report-result.js';

describe('the application floor without a state store (the command line)', () => {
  it('keeps no history, triage or schedules, and counts no finding as accepted or snoozed', async () => {
    const services = createServices({
      connection: { tenantLabel: 'Contoso (demo)', demo: true, tenantKey: 'demo-contoso' },
      load: async () => reportResult('2026-11-23T08:00:00Z', ['missing-bitlocker-key:device-1']),
      log: () => undefined,
    });
    expect([services.store, services.triage, services.schedules]).toEqual([undefined, undefined, undefined]);
    const result = await services.reports.get('escrow-gaps');
    expect(await services.reports.history('escrow-gaps')).toBeNull();
    const [summary] = await services.reports.summarizeAll([result], new Date('2026-11-23T09:00:00Z'));
    expect(summary).toMatchObject({ changes: null, trend: [], triaged: { accepted: 0, snoozed: 0 } });
    await expect(services.reports.triageView('escrow-gaps', { canTriage: true }, new Date())).rejects.toThrow(/needs the state store/);
  });

  it('refuses to be made with neither a Graph client nor a load of its own: a composition root gives one', () => {
    expect(() => createServices({ connection: { tenantLabel: 'Contoso (demo)', demo: true, tenantKey: 'demo-contoso' }, log: () => undefined })).toThrow(/given neither/);
  });
});

describe('the viewer scope', () => {
  it('refuses to be made over a Graph client that does not read the objects’ scope tags: the one shared load must carry them for every viewer', () => {
    const unread = (): never => {
      throw new Error('nothing is read in this test');
    };
    const reader = (scopeTags: boolean): GraphReader => ({
      betaCoverage: false,
      scopeTags,
      coveragePath: (path) => path,
      get: unread,
      pages: unread,
      getAll: unread,
      batchGet: unread,
    });
    const connection = (graph: GraphReader) => ({ tenantLabel: 'Contoso (demo)', demo: true, tenantKey: 'demo-contoso', graph });
    expect(() => createServices({ connection: connection(reader(false)), viewerScope: true, log: () => undefined })).toThrow(/open the connection with `scopeTags`/);
    expect(createServices({ connection: connection(reader(true)), viewerScope: true, log: () => undefined }).viewerScopes).toBeDefined();
    // With the scope off, the client reads no scope tags, and need not.
    expect(createServices({ connection: connection(reader(false)), log: () => undefined }).viewerScopes).toBeUndefined();
  });
});

describe("one tenant's state never another's", () => {
  it("refuses a store opened for another tenant than the connection's", async () => {
    const directory = await mkdtemp(join(tmpdir(), 'dmhealth-services-tenant-'));
    const store = await FileStateStore.open(directory, { tenant: 'demo-contoso' });
    try {
      const load = async () => reportResult('2026-11-23T08:00:00Z', []);
      expect(() => createServices({ connection: { tenantLabel: 'Fabrikam', demo: false, tenantKey: 'fabrikam-id' }, load, store, log: () => undefined })).toThrow(
        /opened for tenant demo-contoso/,
      );
      expect(createServices({ connection: { tenantLabel: 'Contoso (demo)', demo: true, tenantKey: 'demo-contoso' }, load, store, log: () => undefined }).store).toBe(store);
    } finally {
      await store.close();
      await rm(directory, { recursive: true, force: true });
    }
  });

  it("keeps each tenant's history apart in one store: the demo's loads are no point of a real tenant's trend", async () => {
    const directory = await mkdtemp(join(tmpdir(), 'dmhealth-services-history-'));
    const demoStore = await FileStateStore.open(directory, { tenant: 'demo-contoso' });
    const realStore = await FileStateStore.open(directory, { tenant: '0b6f1d4e-0000-4000-8000-000000000042' });
    try {
      const demo = createServices({
        connection: { tenantLabel: 'Contoso (demo)', demo: true, tenantKey: demoStore.tenant },
        load: async () => reportResult('2026-11-23T08:00:00Z', ['missing-bitlocker-key:device-1', 'missing-bitlocker-key:device-2']),
        store: demoStore,
        log: () => undefined,
      });
      await demo.reports.get('escrow-gaps');
      expect((await demo.reports.history('escrow-gaps'))?.points).toHaveLength(1);
      const real = createServices({
        connection: { tenantLabel: '0b6f1d4e-0000-4000-8000-000000000042', demo: false, tenantKey: realStore.tenant },
        load: async () => reportResult('2026-11-23T09:00:00Z', ['missing-bitlocker-key:device-9']),
        store: realStore,
        log: () => undefined,
      });
      const result = await real.reports.get('escrow-gaps');
      const [summary] = await real.reports.summarizeAll([result], new Date('2026-11-23T09:05:00Z'));
      // The real tenant's first load: nothing new or resolved against the demo's findings.
      expect(summary?.changes).toBeNull();
      expect((await real.reports.history('escrow-gaps'))?.points.map((point) => point.at)).toEqual(['2026-11-23T09:00:00Z']);
    } finally {
      await Promise.all([demoStore.close(), realStore.close()]);
      await rm(directory, { recursive: true, force: true });
    }
  });
});
