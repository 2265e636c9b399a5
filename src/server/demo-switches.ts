import { REPORTS } from '../core/reports/registry.js';
import type { ReportRegistry } from '../core/reports/registry.js';
import type { ReportId } from '../core/reports/report-model.js';
import { startSimulator } from '../sim/simulator.js';
import type { Simulator } from '../sim/simulator.js';
import { buildDemoTenant, demoGrantedRoles } from '../sim/tenants/demo-tenant.js';
import { buildLargeTenant } from '../sim/tenants/large-tenant.js';
import type { SimTenant } from '../sim/tenants/sim-tenant.js';

// The one file of the server that knows the simulator (docs/architecture.md, "The parts"): the
// demo tenant `npm start` reads when no tenant is configured, and the switches that change it.

/**
 * `npm start -- --deny <permission>` and `--fault <report>:<status>` (README, "Quick start"):
 * the demo tenant with a permission not granted, or a report's Graph source answering an error, so
 * that anyone can see each state of the specification (403, n/a, a load error) without a harness.
 */
export interface DemoSwitches {
  deny: string[];
  faults: Array<{ report: ReportId; status: number }>;
}

/** The switches as given, checked: a message naming what is accepted when one is wrong. */
export function readDemoSwitches(
  deny: readonly string[],
  faults: readonly string[],
  registry: ReportRegistry,
): { ok: true; switches: DemoSwitches } | { ok: false; message: string } {
  // What the demo grants (demo-tenant.ts): what the reports and "what applies" ask for, and the
  // optional ones besides (Device.Read.All), which `--deny` takes to show the answer without.
  const permissions: readonly string[] = demoGrantedRoles(registry);
  for (const permission of deny) {
    // Entra's names are exact, case included: a near miss would deny nothing.
    if (!permissions.includes(permission))
      return { ok: false, message: `--deny takes one of the app's permissions, exactly as Entra names it: ${permissions.join(', ')}; got "${permission}".` };
  }
  const parsed: DemoSwitches['faults'] = [];
  for (const fault of faults) {
    const match = /^(.+):(\d{3})$/.exec(fault);
    const report = match ? registry.find(match[1]!) : null;
    const status = match ? Number(match[2]) : 0;
    if (!report || status < 400 || status > 599) {
      return { ok: false, message: `--fault takes <report>:<status>, a report id or number and an HTTP error status (400 to 599), e.g. startup-reliability:503; got "${fault}".` };
    }
    parsed.push({ report, status });
  }
  return { ok: true, switches: { deny: [...deny], faults: parsed } };
}

/** The demo tenant without the denied permissions. */
export function withDenied(tenant: SimTenant, deny: readonly string[]): SimTenant {
  return deny.length === 0 ? tenant : { ...tenant, grantedRoles: tenant.grantedRoles.filter((role) => !deny.includes(role)) };
}

/**
 * Makes each faulted report's essential source (its definition's `faultSource`: the collection it
 * cannot do without) answer its status, for as long as the server runs: on either version, since a
 * report reads the beta twin of its `/v1.0` source where `GRAPH_BETA_COVERAGE` or `VIEWER_SCOPE`
 * asks for it (report 4's devices, for one), and the fault must reach the read the report makes.
 */
export function applyFaults(simulator: Simulator, faults: DemoSwitches['faults'], registry: ReportRegistry = REPORTS): void {
  for (const { report, status } of faults) simulator.faults.add({ path: registry.definition(report).faultSource.replace(/^\/(v1\.0|beta)\//, '/'), status });
}

/**
 * The simulated tenant demo mode reads: the demo tenant of the registry's reports, or the large one
 * of `devices` devices, with the switches applied. Closed with the connection that reads it.
 */
export async function startDemoTenant(options: { tenant: 'demo' | 'large'; devices: number; switches: DemoSwitches }, registry: ReportRegistry = REPORTS): Promise<Simulator> {
  const tenant = options.tenant === 'large' ? buildLargeTenant({ devices: options.devices }) : buildDemoTenant({ registry });
  const simulator = await startSimulator({ tenant: withDenied(tenant, options.switches.deny) });
  applyFaults(simulator, options.switches.faults, registry);
  return simulator;
}
