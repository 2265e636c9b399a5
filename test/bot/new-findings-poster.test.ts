import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createHash } from 'node:crypto';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AdaptiveCardJson } from '../../src/bot/cards/adaptive-card.js';
import { NewFindingsPoster } from '../../src/bot/new-findings-poster.js';
import type { PostTarget } from '../../src/bot/new-findings-poster.js';
import { createTabLinks } from '../../src/bot/tab-links.js';
import { loadReport } from '../../src/core/reports/registry.js';
import type { ReportResult } from '../../src/core/reports/report-model.js';
import { FileStateStore } from '../../src/core/store/file-state-store.js';
import { buildDemoTenant } from '../../src/sim/tenants/demo-tenant.js';
import { useTestSimulator } from '../support/simulated-tenant.js';

const harness = useTestSimulator({ tenant: buildDemoTenant() });
const directory = mkdtempSync(join(tmpdir(), 'dmhealth-poster-'));
let store: FileStateStore;
let results: ReportResult[];

beforeAll(async () => {
  store = await FileStateStore.open(directory);
  results = [await loadReport('escrow-gaps', harness.client())];
});
afterAll(async () => {
  await store?.close();
  rmSync(directory, { recursive: true, force: true });
});

function recordingTarget(channel: string): PostTarget & { cards: AdaptiveCardJson[] } {
  const cards: AdaptiveCardJson[] = [];
  return { channel, name: channel, cards, send: async (card) => void cards.push(card) };
}

describe('posting new findings to several channels', () => {
  it('fails the channel whose ledger is torn, with the reason, and still posts to the others', async () => {
    const poster = new NewFindingsPoster({ store, loadReports: async () => results, tenantLabel: 'Contoso (demo)', tabLinks: createTabLinks({ teamsAppId: undefined, tabUrl: 'http://127.0.0.1:3978/tab/' }) });
    const torn = recordingTarget('19:torn@thread.tacv2');
    const whole = recordingTarget('19:whole@thread.tacv2');
    await store.writeLedger({ channel: torn.channel, updatedAt: new Date().toISOString(), entries: [] });
    writeFileSync(join(directory, 'ledgers', `${createHash('sha256').update(torn.channel).digest('hex')}.json`), '{"channel": "19:torn@thr');

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
});
