import { describe, expect, it } from 'vitest';
import { budgetOf, directoryBudgetFor, GRAPH_BUDGETS, RequestBudget } from '../../src/graph/request-budget.js';

/** A clock that moves only when the budget sleeps: every wait is counted, none is real. */
function fakeClock() {
  const clock = { now: 0, slept: [] as number[] };
  return {
    clock,
    budget: new RequestBudget(
      { intune: { requests: 10, windowMs: 1_000 }, 'intune-auditing': { requests: 10, windowMs: 1_000 }, directory: { requests: 5, windowMs: 500 } },
      () => clock.now,
      async (ms) => {
        clock.slept.push(ms);
        clock.now += ms;
      },
    ),
  };
}

describe('the request budget', () => {
  it('grants up to the limit at once, then waits until the oldest sent request leaves the window', async () => {
    const { clock, budget } = fakeClock();
    for (let index = 0; index < 10; index += 1) {
      (await budget.reserve({ intune: 1 })).sent();
      clock.now += 10;
    }
    expect(clock.slept).toEqual([]);
    (await budget.reserve({ intune: 1 })).sent();
    // The first was sent at 0: the eleventh may go once it is a window old, at 1,000.
    expect(clock.now).toBe(1_000);
    expect(budget.inWindow('intune')).toBe(10);
  });

  it('counts a $batch call as its sub-requests, in each budget they spend', async () => {
    const { clock, budget } = fakeClock();
    (await budget.reserve({ intune: 8, directory: 2 })).sent();
    expect([budget.inWindow('intune'), budget.inWindow('directory')]).toEqual([8, 2]);
    (await budget.reserve({ intune: 3 })).sent();
    expect(clock.now).toBe(1_000);
    // One larger than a whole budget still goes, at the whole budget, rather than wait for ever.
    (await budget.reserve({ directory: 50 })).sent();
    expect(budget.inWindow('directory')).toBe(5);
  });

  it('counts a held reservation until it is sent, and gives back one that never is', async () => {
    const { clock, budget } = fakeClock();
    const held = await budget.reserve({ intune: 10 });
    const next = budget.reserve({ intune: 1 });
    let granted = false;
    void next.then(() => (granted = true));
    await Promise.resolve();
    await Promise.resolve();
    expect(granted).toBe(false);
    held.cancel();
    (await next).sent();
    expect(clock.now).toBe(0);
    expect(budget.inWindow('intune')).toBe(1);
  });

  it('grants in the order asked, so a large call is not overtaken by small ones', async () => {
    const { budget } = fakeClock();
    (await budget.reserve({ intune: 9 })).sent();
    const order: string[] = [];
    const large = budget.reserve({ intune: 5 }).then((reservation) => (order.push('large'), reservation.sent()));
    const small = budget.reserve({ intune: 1 }).then((reservation) => (order.push('small'), reservation.sent()));
    await Promise.all([large, small]);
    expect(order).toEqual(['large', 'small']);
  });

  /** A budget of one request a window, whose Intune window is already spent and whose clock never moves on its own. */
  async function spentBudget(): Promise<RequestBudget> {
    const budget = new RequestBudget(
      { intune: { requests: 1, windowMs: 1_000 }, 'intune-auditing': { requests: 1, windowMs: 1_000 }, directory: { requests: 1, windowMs: 1_000 } },
      () => 0,
      () => new Promise<void>(() => undefined),
    );
    (await budget.reserve({ intune: 1 })).sent();
    return budget;
  }

  it("holds up no request of another budget while one waits for Intune's window", async () => {
    const budget = await spentBudget();
    const controller = new AbortController();
    const intune = budget.reserve({ intune: 1 }, controller.signal);
    (await budget.reserve({ directory: 1 })).sent();
    expect(budget.inWindow('directory')).toBe(1);
    controller.abort(new Error('done'));
    await expect(intune).rejects.toThrow('done');
  });

  it('stops waiting with the signal of an aborted load', async () => {
    const budget = await spentBudget();
    const controller = new AbortController();
    const waiting = budget.reserve({ intune: 1 }, controller.signal);
    controller.abort(new Error('the report failed'));
    await expect(waiting).rejects.toThrow('the report failed');
  });

  it("spends the audit log's own budget for Intune's audit events while Intune's is spent", async () => {
    const { clock, budget } = fakeClock();
    (await budget.reserve({ intune: 10 })).sent();
    (await budget.reserve({ [budgetOf('/v1.0/deviceManagement/auditEvents')]: 10 })).sent();
    expect(clock.slept).toEqual([]);
    expect([budget.inWindow('intune'), budget.inWindow('intune-auditing')]).toEqual([10, 10]);
  });

  it("paces the directory at nine tenths of the limit of the tenant's size, which only a larger proved size raises", async () => {
    // Microsoft's sizes: S under 50 users (3,500 units per 10 s), M 50 to 500 (5,000), L above 500 (8,000).
    expect([49, 50, 500, 501].map((users) => directoryBudgetFor(users).requests)).toEqual([3_150, 4_500, 4_500, 7_200]);
    expect(GRAPH_BUDGETS.directory).toEqual(directoryBudgetFor(0));

    // A clock that never moves: the waiting request can only go if the raise wakes it.
    const budget = await spentBudget();
    (await budget.reserve({ directory: 1 })).sent();
    const next = budget.reserve({ directory: 1 });
    let granted = false;
    void next.then(() => (granted = true));
    await Promise.resolve();
    expect(granted).toBe(false);
    budget.raise('directory', { requests: 10, windowMs: 500 });
    (await next).sent();
    expect(budget.inWindow('directory')).toBe(2);
    // Never lowered.
    budget.raise('directory', { requests: 2, windowMs: 500 });
    expect(budget.limitOf('directory')).toEqual({ requests: 10, windowMs: 500 });
  });

  it("spends Intune's budget for deviceManagement and deviceAppManagement paths, the directory's for the rest", () => {
    expect(budgetOf('/v1.0/deviceManagement/auditEvents')).toBe('intune-auditing');
    expect(budgetOf('/beta/deviceManagement/auditEvents')).toBe('intune-auditing');
    expect(budgetOf('/v1.0/deviceManagement/auditEventsX')).toBe('intune');
    expect(budgetOf('/beta/deviceManagement/configurationPolicies')).toBe('intune');
    expect(budgetOf('/v1.0/deviceAppManagement/mobileApps')).toBe('intune');
    expect(budgetOf('/v1.0/deviceManagement/managedDevices')).toBe('intune');
    expect(budgetOf('/v1.0/groups/b1a2c3d4-0000-4000-8000-000000000001')).toBe('directory');
    expect(budgetOf('/v1.0/informationProtection/bitlocker/recoveryKeys')).toBe('directory');
    expect(budgetOf('/v1.0/deviceManagementX')).toBe('directory');
  });
});
