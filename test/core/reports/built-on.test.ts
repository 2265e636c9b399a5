import { describe, expect, it } from 'vitest';
import { REPORTS, ReportRegistry } from '../../../src/core/reports/registry.js';
import type { LoadContext, ReportDefinition } from '../../../src/core/reports/report-model.js';
import type { GraphReader } from '../../../src/core/graph/graph-reader.js';
import { SECURITY_POSTURE_READS } from '../../../src/core/reports/security-posture/reads.js';
import { ASSIGNMENT_READS } from '../../../src/core/reports/assignment-hygiene/reads.js';
import { staleDevicesReport } from '../../fixtures/stale-devices/definition.js';

/** No load here reads Graph: the two reports' loads below are the records' only source. */
const NO_GRAPH = {} as GraphReader;

/** A report of the fixture's presentation and reads, whose load is `load` and whose rows are none. */
function report(id: string, load: (context: LoadContext) => Promise<unknown>, builtOn?: string[]): ReportDefinition<unknown> {
  return {
    ...(staleDevicesReport as ReportDefinition<unknown>),
    id,
    botNames: [id],
    ...(builtOn ? { builtOn } : {}),
    load,
    derive: () => ({ state: 'empty', notice: 'none', columns: [], rows: [], findings: [] }),
  };
}

describe('a report built on another (`builtOn`)', () => {
  it("takes the other's records from its load, which reads no audit log, where no cache shares them", async () => {
    const auditReads: string[] = [];
    const base = report('base', async (context) => {
      const log = await context.auditLog?.read(context, new Date(0), new AbortController().signal);
      auditReads.push(log?.ok === false ? log.reason : 'read');
      return { devices: 3 };
    });
    const taken: unknown[] = [];
    const judge = report('judge', async (context) => taken.push(await context.recordsOfReport!('base')), ['base']);
    const registry = new ReportRegistry([base, judge]);
    const result = await registry.load('judge', NO_GRAPH, { auditLog: { read: async () => ({ ok: true, value: { since: '', entries: [] } }) } });
    expect(result.state).toBe('empty');
    expect(taken).toEqual([{ devices: 3 }]);
    expect(auditReads).toEqual(["not read: a report loaded for another report's records tells no stories"]);
  });

  it('takes them from the cache the load runs under where it shares them, and loads nothing itself', async () => {
    let baseLoads = 0;
    const base = report('base', async () => ({ devices: (baseLoads += 1) }));
    const taken: unknown[] = [];
    const judge = report('judge', async (context) => taken.push(await context.recordsOfReport!('base')), ['base']);
    const asked: string[] = [];
    const recordsOf = async (id: string) => (asked.push(id), { devices: 7 });
    await new ReportRegistry([base, judge]).load('judge', NO_GRAPH, { recordsOf });
    expect({ taken, asked, baseLoads }).toEqual({ taken: [{ devices: 7 }], asked: ['base'], baseLoads: 0 });
  });

  it('refuses, as a bug the server logs, a load that asks for the records of a report it is not built on', async () => {
    const base = report('base', async () => ({ devices: 1 }));
    const judge = report('judge', async (context) => context.recordsOfReport!('base'));
    const bugs: unknown[] = [];
    const result = await new ReportRegistry([base, judge]).load('judge', NO_GRAPH, { onUnexpectedError: (_id, error) => bugs.push(error) });
    expect(result.state).toBe('load-error');
    expect(String(bugs[0])).toMatch(/asked for the records of "base", which it is not built on/);
  });

  it('is refused by the registry when the report it names is not there, or when it does not declare that report’s reads', () => {
    const base = report('base', async () => ({}));
    expect(() => new ReportRegistry([base, report('judge', async () => ({}), ['gone'])])).toThrow(/built on "gone", which is not another report/);
    expect(() => new ReportRegistry([base, report('judge', async () => ({}), ['judge'])])).toThrow(/built on "judge", which is not another report/);
    const posture = REPORTS.definition('security-posture');
    const undeclared = { ...report('judge', async () => ({}), ['security-posture']), reads: staleDevicesReport.reads };
    expect(() => new ReportRegistry([posture, undeclared])).toThrow(/built on "security-posture" without declaring its reads: \/beta\/deviceManagement\/configurationPolicies/);
  });

  it('holds for the setting conflicts report: built on reports 3 and 2, it declares their reads as its own', () => {
    const conflicts = REPORTS.definition('setting-conflicts');
    expect(conflicts.builtOn).toEqual(['security-posture', 'assignment-hygiene']);
    expect(conflicts.reads).toEqual(expect.arrayContaining([...SECURITY_POSTURE_READS, ...ASSIGNMENT_READS]));
    expect(REPORTS.catalogue().some((presentation) => 'builtOn' in presentation)).toBe(false);
  });
});
