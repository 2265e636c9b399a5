import { describe, expect, it } from 'vitest';
import { AppliesService } from '../../src/app/applies-service.js';
import type { AppliesProgress } from '../../src/app/applies-service.js';
import { APPLIES_PROGRESS_AFTER_MS, appliesProgressWords, delayedProgressLine } from '../../src/cli/applies-progress.js';
import { buildDemoTenant } from '../../src/sim/tenants/demo-tenant.js';
import { useTestSimulator } from '../support/simulated-tenant.js';

const harness = useTestSimulator({ tenant: buildDemoTenant() });

/** Timers the test runs by hand: the clock is the test's. */
function handTimers() {
  const pending = new Map<number, () => void>();
  let next = 0;
  return {
    timers: {
      setTimeout: (run: () => void, ms: number) => {
        expect(ms).toBe(APPLIES_PROGRESS_AFTER_MS);
        pending.set(++next, run);
        return next;
      },
      clearTimeout: (handle: unknown) => void pending.delete(handle as number),
    },
    elapse: () => {
      for (const [handle, run] of [...pending]) {
        pending.delete(handle);
        run();
      }
    },
    pending: () => pending.size,
  };
}

describe('what dmhealth applies says while a question takes more than a second', () => {
  it('says nothing for a question answered within the second, and nothing after it', () => {
    const written: string[] = [];
    const clock = handTimers();
    const line = delayedProgressLine('CONTOSO-0026', (text) => written.push(text), clock.timers);
    line.onProgress({ step: 'question' });
    line.done();
    expect(clock.pending()).toBe(0);
    expect(written).toEqual([]);
  });

  it('says the latest step once the second is over, each step after it on the same line, and clears the line at the end', () => {
    const written: string[] = [];
    const clock = handTimers();
    const line = delayedProgressLine('CONTOSO-0026', (text) => written.push(text), clock.timers);
    line.onProgress({ step: 'assignments', source: 'deviceConfigurations', records: 120 });
    line.onProgress({ step: 'assignments', source: 'mobileApps', records: 1500 });
    expect(written).toEqual([]);
    clock.elapse();
    line.onProgress({ step: 'question' });
    line.done();
    line.onProgress({ step: 'settings', source: 'configurationPolicies', records: 3 });
    expect(written).toEqual([
      '\r\u001b[KReading the assignments of every policy, app and script: mobileApps 1,500…',
      '\r\u001b[KLooking up CONTOSO-0026 and its groups…',
      '\r\u001b[K',
    ]);
  });

  it('writes a question that carries control characters inert', () => {
    expect(appliesProgressWords({ step: 'question' }, 'PC\u001b[2J')).toContain('PC\u001b[2J');
    const written: string[] = [];
    const clock = handTimers();
    const line = delayedProgressLine('PC\u001b[2J', (text) => written.push(text), clock.timers);
    line.onProgress({ step: 'question' });
    clock.elapse();
    expect(written[0]!.slice('\r\u001b[K'.length)).not.toContain('\u001b');
  });

  it('hears from the service each step of a cold question about a device, in order, and nothing when it is answered from what is kept', async () => {
    const service = new AppliesService({ graph: harness.client(), maxAgeMs: 60_000, log: () => undefined });
    const steps: Array<Parameters<AppliesProgress>[0]> = [];
    const result = await service.applies('CONTOSO-0026', { onProgress: (step) => steps.push(step) });
    expect(result.kind).toBe('found');
    const order = steps.map((step) => step.step).filter((step, index, all) => step !== all[index - 1]);
    expect(order).toEqual(['assignments', 'question', 'settings']);
    expect(steps.some((step) => step.step === 'assignments' && step.records > 0)).toBe(true);
    const again: Array<Parameters<AppliesProgress>[0]> = [];
    await service.applies('CONTOSO-0026', { onProgress: (step) => again.push(step) });
    expect(again.filter((step) => step.step !== 'question')).toEqual([]);
  });
});
