import { describe, expect, it } from 'vitest';
import { AppliesService } from '../../src/app/applies-service.js';
import { appliesToText } from '../../src/cli/applies-text.js';
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
    expect(text).toContain(`\n${unknown.length} unknown for one reason: ${reason}\n`);
    expect(text.split('(the reason above)').length - 1).toBe(unknown.length);
  });
});
