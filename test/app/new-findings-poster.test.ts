import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createHash } from 'node:crypto';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AdaptiveCardJson } from '../../src/bot/cards/adaptive-card.js';
import { NewFindingsPoster } from '../../src/app/new-findings-poster.js';
import type { PostTarget } from '../../src/app/new-findings-poster.js';
import { newFindingsCardFor } from '../../src/bot/cards/new-findings-card.js';
import { createTabLinks } from '../../src/bot/tab-links.js';
import { loadReport } from '../../src/core/reports/registry.js';
import type { ReportResult } from '../../src/core/reports/report-model.js';
import { FileStateStore } from '../../src/store/file-state-store.js';
import { buildDemoTenant } from '../../src/sim/tenants/demo-tenant.js';
import { useTestSimulator, simulatorTenantKey } from '../support/simulated-tenant.js';

const harness = useTestSimulator({ tenant: buildDemoTenant() });
const directory = mkdtempSync(join(tmpdir(), 'dmhealth-poster-'));
let store: FileStateStore;
let results: ReportResult[];

beforeAll(async () => {
  store = await FileStateStore.open(directory, { tenant: simulatorTenantKey(harness.sim) });
  results = [await loadReport('escrow-gaps', harness.client())];
});
afterAll(async () => {
  await store?.close();
  rmSync(directory, { recursive: true, force: true });
});

function recordingTarget(channel: string): PostTarget<AdaptiveCardJson> & { cards: AdaptiveCardJson[] } {
  const cards: AdaptiveCardJson[] = [];
  return { channel, name: channel, cards, send: async (card) => void cards.push(card) };
}

describe('posting new findings to several channels', () => {
  it('fails the channel whose ledger is torn, with the reason, and still posts to the others', async () => {
    const poster = new NewFindingsPoster({
      store,
      loadReports: async () => results,
      render: newFindingsCardFor({ tenantLabel: 'Contoso (demo)', tabLinks: createTabLinks({ teamsAppId: undefined, tabUrl: 'http://127.0.0.1:3978/tab/' }) }),
    });
    const torn = recordingTarget('19:torn@thread.tacv2');
    const whole = recordingTarget('19:whole@thread.tacv2');
    await store.writeLedger({ channel: torn.channel, updatedAt: new Date().toISOString(), entries: [] });
    writeFileSync(join(directory, 'tenants', store.tenant, 'ledgers', `${createHash('sha256').update(torn.channel).digest('hex')}.json`), '{"channel": "19:torn@thr');

    const outcomes = [];
    for (const target of [torn, whole]) outcomes.push(await poster.post(target, ['escrow-gaps'], { results }));
    expect(outcomes.map((outcome) => [outcome.channel, outcome.status])).toEqual([
      [torn.channel, 'failed'],
      [whole.channel, 'posted'],
    ]);
    expect(outcomes[0]!.message).toBe(`Nothing was posted: The ledger of channel ${torn.channel} is not valid JSON; move it aside to start that channel afresh.`);
    expect(torn.cards).toHaveLength(0);
    expect(whole.cards).toHaveLength(1);
  });

  it('posts again after a post cut off between the send and the record, and says it may repeat it; a refused send leaves no trace', async () => {
    const poster = (over: FileStateStore = store) =>
      new NewFindingsPoster({
        store: over,
        loadReports: async () => results,
        render: newFindingsCardFor({ tenantLabel: 'Contoso (demo)', tabLinks: createTabLinks({ tabUrl: 'http://127.0.0.1:3978/tab/' }) }),
        now: () => new Date('2026-11-23T10:00:00Z'),
      });
    const refused = { ...recordingTarget('19:refused@thread.tacv2'), send: async () => Promise.reject(new Error('403 from the connector')) };
    expect(await poster().post(refused, ['escrow-gaps'], { results })).toMatchObject({ status: 'failed' });
    expect(await store.readLedger(refused.channel)).toEqual({ channel: refused.channel, entries: [], updatedAt: null });

    // The process "dies" after Teams took the card: the write that records it never happens.
    const cut = recordingTarget('19:cut@thread.tacv2');
    let writes = 0;
    const dying = Object.create(store, {
      writeLedger: { value: async (ledger: Parameters<FileStateStore['writeLedger']>[0]) => (++writes === 2 ? Promise.reject(new Error('killed')) : store.writeLedger(ledger)) },
    }) as FileStateStore;
    await expect(poster(dying).post(cut, ['escrow-gaps'], { results })).rejects.toThrow('killed');
    expect(cut.cards).toHaveLength(1);
    expect((await store.readLedger(cut.channel)).postStartedAt).toBe('2026-11-23T10:00:00.000Z');

    const again = await poster().post(cut, ['escrow-gaps'], { results });
    expect(again).toMatchObject({ status: 'posted', fresh: results[0]!.findings.length });
    expect(cut.cards).toHaveLength(2);
    expect(JSON.stringify(cut.cards[1])).toContain('was cut off before Teams confirmed it; if it arrived, this card repeats some of it.');
    expect(JSON.stringify(cut.cards[0])).not.toContain('cut off');
    expect((await store.readLedger(cut.channel)).postStartedAt).toBeUndefined();
    expect(await poster().post(cut, ['escrow-gaps'], { results })).toMatchObject({ status: 'nothing-new' });
  });
});
