import { describe, expect, it } from 'vitest';
import { createServices } from '../../src/app/create-services.js';
import { reportResult } from '../fixtures/report-result.js';

describe('the application floor without a state store (the command line)', () => {
  it('keeps no history, triage or schedules, and counts no finding as accepted or snoozed', async () => {
    const services = createServices({
      connection: { tenantLabel: 'Contoso (demo)', demo: true },
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
    expect(() => createServices({ connection: { tenantLabel: 'Contoso (demo)', demo: true }, log: () => undefined })).toThrow(/given neither/);
  });
});
