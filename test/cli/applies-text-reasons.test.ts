import { describe, expect, it } from 'vitest';
import { AppliesService } from '../../src/app/applies-service.js';
import { appliesToText } from '../../src/cli/applies-text.js';
import { appliesCard } from '../../src/bot/cards/applies-card.js';
import { DEVICE_GROUPS_NOT_GRANTED, undecidedReasons } from '../../src/core/applies/words.js';
import { withDenied } from '../../src/server/demo-switches.js';
import { buildDemoTenant } from '../../src/sim/tenants/demo-tenant.js';
import { useTestSimulator } from '../support/simulated-tenant.js';

// As `npm start -- --deny Device.Read.All` runs the demo: every object a device group may decide is unknown, for one reason.
const harness = useTestSimulator({ tenant: withDenied(buildDemoTenant(), ['Device.Read.All']) });

describe("the command line's answer", () => {
  it('says a reason that many unknown objects share once, above them, and each of them points to it', async () => {
    const result = await new AppliesService({ graph: harness.client(), maxAgeMs: 60_000, log: () => undefined }).applies('CONTOSO-0026');
    if (result.kind !== 'found' || result.answer.subject.kind !== 'device') throw new Error(`expected a device, got ${result.kind}`);
    const reason = result.answer.subject.entraUnknownReason!;
    expect(reason).toContain('Device.Read.All');
    const unknown = result.answer.groups.flatMap((group) => group.entries).filter((entry) => entry.verdict === 'unknown' && entry.words.includes(reason));
    expect(unknown.length).toBeGreaterThan(1);
    const text = appliesToText(result);
    expect(text.split(reason).length - 1).toBe(1);
    // At the command line the reader runs the app: told where granting it is described.
    expect(text).toContain(`\n${unknown.length} unknown for one reason: ${reason}. README, "Optional permission: device groups", says how to grant it.\n`);
    expect(text.split('(the reason above)').length - 1).toBe(unknown.length);
    expect(text).toMatch(/Assigned to [^\n]+, whose membership could not be told \(the reason above\)\./);
  });

  it('in the tab and the cards, says the shared reason once too, in words for an administrator, with each object’s path beside it', async () => {
    const result = await new AppliesService({ graph: harness.client(), maxAgeMs: 60_000, log: () => undefined }).applies('CONTOSO-0026');
    if (result.kind !== 'found' || result.answer.subject.kind !== 'device') throw new Error(`expected a device, got ${result.kind}`);
    const reasons = undecidedReasons(result.answer);
    const shared = reasons.find((reason) => reason.words === DEVICE_GROUPS_NOT_GRANTED)!;
    expect(shared.entries).toHaveLength(result.answer.counts.unknown);
    expect(reasons).toEqual([shared]);
    expect(shared.words).not.toContain('README');
    expect(shared.paths).toHaveLength(shared.entries.length);
    for (const path of shared.paths!) expect(path).toMatch(/^(?:Assigned to .+, whose membership could not be told|Targets it through .+ could not be told)$/);
    // The bot's card: one reason, the objects counted under it.
    const card = JSON.stringify(appliesCard(result, { tenantLabel: 'Contoso (demo)', tabUrl: 'http://127.0.0.1:3978/tab/' }));
    expect(card.split(DEVICE_GROUPS_NOT_GRANTED).length - 1).toBe(1);
    expect(card).toContain(`${result.answer.counts.unknown} objects: ${DEVICE_GROUPS_NOT_GRANTED}`);
  });
});
