/**
 * Report 4's reads against the simulated Graph: Windows devices only, asked for with `$filter` and
 * read with a `$select` of the fields the report uses, the filter checked again on the client, and
 * a tenant that refuses the filter read whole instead; with the viewer scope on, the same read on
 * beta with the devices' scope tags.
 */
import { describe, expect, it } from 'vitest';
import type { GraphReader } from '../../../../src/core/graph/graph-reader.js';
import { WINDOWS_FILTER } from '../../../../src/core/reports/escrow-gaps/load.js';
import { BETA_DEVICE_FIELDS, DEVICE_FIELDS, LAPS_FIELDS, SCOPE_TAG_DEVICE_FIELDS } from '../../../../src/core/reports/escrow-gaps/reads.js';
import { loadReport } from '../../../../src/core/reports/registry.js';
import { VIEWER_SCOPE_DEMO } from '../../../../src/core/viewer-scope/demo.js';
import { scopeReport } from '../../../../src/core/viewer-scope/scope-report.js';
import { ROW_SCOPE_TAGS_KEY } from '../../../../src/core/viewer-scope/scope-tag-ids.js';
import { WHOLE_TENANT, scopeOfTag } from '../../../../src/core/viewer-scope/scope.js';
import { buildDemoTenant } from '../../../../src/sim/tenants/demo-tenant.js';
import { declaredFindingsFor } from '../../../../src/sim/tenants/sim-tenant.js';
import { useTestSimulator } from '../../../support/simulated-tenant.js';

const now = new Date('2026-11-22T09:00:00Z');
const tenant = buildDemoTenant({ now });
const harness = useTestSimulator({ tenant });

const DEVICES = /^\/(v1\.0|beta)\/deviceManagement\/managedDevices$/;
const findingKeys = (findings: ReadonlyArray<{ kind: string; subjectId: string }>) => new Set(findings.map((finding) => `${finding.kind} ${finding.subjectId.toLowerCase()}`));
const declared = (betaCoverage: boolean) => findingKeys(declaredFindingsFor(tenant, { betaCoverage }).filter((finding) => finding.report === 'escrow-gaps'));
const queryOf = (path: RegExp | string) =>
  harness.sim.graph.requests.filter((request) => (typeof path === 'string' ? request.path === path : path.test(request.path))).map((request) => new URLSearchParams(request.query));
const lowerCaseWindows = tenant.collections.managedDevices.filter((device) => device.operatingSystem === 'windows').map((device) => device.id);

/** A reader that drops `$filter` from the device list's query, as a Graph that ignores the filter would. */
function ignoringFilter(graph: GraphReader): GraphReader {
  return Object.assign(Object.create(graph) as GraphReader, {
    pages<T>(path: string, options: Parameters<GraphReader['pages']>[1] = {}) {
      const { $filter: _ignored, ...query } = options.query ?? {};
      return graph.pages<T>(path, { ...options, query });
    },
  });
}

describe('report 4 reads only what it shows', () => {
  it.each([false, true])('asks for Windows devices and their used fields only (beta coverage: %s), finding what the demo declares', async (betaCoverage) => {
    const report = await loadReport('escrow-gaps', harness.client({ betaCoverage }), { now: () => now });
    expect(report.state).toBe('loaded');
    expect(findingKeys(report.findings)).toEqual(declared(betaCoverage));
    const [devices, ...more] = queryOf(DEVICES);
    expect(more).toEqual([]);
    expect(harness.sim.graph.requests.find((request) => DEVICES.test(request.path))!.path).toBe(`/${betaCoverage ? 'beta' : 'v1.0'}/deviceManagement/managedDevices`);
    expect(devices!.get('$filter')).toBe(WINDOWS_FILTER);
    expect(devices!.get('$select')!.split(',')).toEqual(betaCoverage ? [...BETA_DEVICE_FIELDS] : [...DEVICE_FIELDS]);
    expect(queryOf('/v1.0/directory/deviceLocalCredentials').map((query) => query.get('$select'))).toEqual([LAPS_FIELDS.join(',')]);
    // The key list's four non-secret properties are all used: no `$select`, so no audited read either.
    expect(queryOf('/v1.0/informationProtection/bitlocker/recoveryKeys').map((query) => query.get('$select'))).toEqual([null]);
    // Graph's filter matches the value as spelt: the device Intune spells 'windows' is not in its answer.
    expect(lowerCaseWindows).toHaveLength(1);
    expect(report.rows.some((row) => row.id === lowerCaseWindows[0])).toBe(false);
  });

  it('with the viewer scope on, reads the devices on beta with their scope tags and nothing else beta adds: the same requests, rows and findings as on /v1.0', async () => {
    const onV1 = await loadReport('escrow-gaps', harness.client(), { now: () => now });
    const v1Requests = harness.sim.graph.requests.map((request) => `${request.path}?${request.query}`).sort();
    harness.sim.graph.clearLog();
    const tagged = await loadReport('escrow-gaps', harness.client({ scopeTags: true }), { now: () => now });
    expect(tagged.state).toBe('loaded');
    const [devices, ...more] = queryOf(DEVICES);
    expect(more).toEqual([]);
    expect(harness.sim.graph.requests.find((request) => DEVICES.test(request.path))!.path).toBe('/beta/deviceManagement/managedDevices');
    expect(devices!.get('$filter')).toBe(WINDOWS_FILTER);
    const select = devices!.get('$select')!.split(',');
    expect(select).toEqual([...SCOPE_TAG_DEVICE_FIELDS]);
    expect(select).toEqual([...DEVICE_FIELDS, 'roleScopeTagIds']);
    expect(select).not.toContain('joinType');
    // The same requests, one for one (the three lists are read side by side, so in any order): the
    // device list on its beta twin, its `$select` with the tags.
    const asOnV1 = (request: { path: string; query: string }) =>
      `${request.path.replace('/beta/', '/v1.0/')}?${request.query.replace(encodeURIComponent(SCOPE_TAG_DEVICE_FIELDS.join(',')), encodeURIComponent(DEVICE_FIELDS.join(',')))}`;
    expect(harness.sim.graph.requests.map(asOnV1).sort()).toEqual(v1Requests);
    // What it covers and finds is the /v1.0 read's: the same rows, findings and notice; each row carries its tags besides.
    expect(tagged.findings.map((finding) => finding.fingerprint)).toEqual(onV1.findings.map((finding) => finding.fingerprint));
    expect(tagged.findings.length).toBeGreaterThan(0);
    expect(tagged.notice).toBe(onV1.notice);
    expect(tagged.rows.map(({ roleScopeTagIds: _tags, ...row }) => row)).toEqual(onV1.rows);
    expect(onV1.rows.some((row) => 'roleScopeTagIds' in row)).toBe(false);
    expect(tagged.rows.every((row) => typeof row.roleScopeTagIds === 'string')).toBe(true);
  });

  it('with the viewer scope on, a device whose tags beta did not send is shown to whole-tenant viewers only', async () => {
    const untold = tenant.collections.managedDevices.find((device) => device.deviceName === 'CONTOSO-0001')!;
    // As a Graph that left the field out of one device's record: its tags are not known, which is not Default.
    const leavingOutTags = (graph: GraphReader): GraphReader =>
      Object.assign(Object.create(graph) as GraphReader, {
        async *pages<T>(path: string, options: Parameters<GraphReader['pages']>[1] = {}) {
          for await (const page of graph.pages<T>(path, options)) {
            yield {
              ...page,
              items: page.items.map((item) =>
                (item as { id?: string }).id === untold.id ? (({ roleScopeTagIds: _left, ...rest }) => rest)(item as Record<string, unknown>) : item,
              ),
            };
          }
        },
      });
    const report = await loadReport('escrow-gaps', leavingOutTags(harness.client({ scopeTags: true })), { now: () => now });
    const row = report.rows.find((candidate) => candidate.id === untold.id)!;
    expect(row[ROW_SCOPE_TAGS_KEY]).toBeNull();
    const europe = scopeReport(report, scopeOfTag({ id: VIEWER_SCOPE_DEMO.tags.europe, displayName: 'Europe' }));
    if (!europe.ok) throw new Error(europe.explanation);
    expect(europe.result.rows).toHaveLength(VIEWER_SCOPE_DEMO.europeDevices - 1);
    expect(europe.result.rows.some((candidate) => candidate.id === untold.id)).toBe(false);
    expect(europe.result.findings.some((finding) => finding.subjectId === untold.id)).toBe(false);
    expect(scopeReport(report, WHOLE_TENANT)).toEqual({ ok: true, result: report });
  });

  it('with the viewer scope on and complete coverage, reads beta as complete coverage does: join type and tags', async () => {
    await loadReport('escrow-gaps', harness.client({ betaCoverage: true, scopeTags: true }), { now: () => now });
    const [devices, ...more] = queryOf(DEVICES);
    expect(more).toEqual([]);
    expect(devices!.get('$select')!.split(',')).toEqual([...BETA_DEVICE_FIELDS]);
  });

  it('reads every device and keeps the Windows ones when the tenant refuses the filter', async () => {
    harness.sim.faults.add({ path: '/v1.0/deviceManagement/managedDevices', status: 400, times: 1 });
    const report = await loadReport('escrow-gaps', harness.client(), { now: () => now });
    expect(report.error).toBeNull();
    expect(findingKeys(report.findings)).toEqual(declared(false));
    const reads = queryOf(DEVICES);
    expect(reads.map((query) => query.get('$filter'))).toEqual([WINDOWS_FILTER, null]);
    expect(reads.map((query) => query.get('$select'))).toEqual([DEVICE_FIELDS.join(','), DEVICE_FIELDS.join(',')]);
    expect(harness.sim.graph.requests.filter((request) => DEVICES.test(request.path)).map((request) => request.status)).toEqual([400, 200]);
    // Read whole, the client-side check keeps Windows in any case and nothing else.
    const windows = tenant.collections.managedDevices.filter((device) => String(device.operatingSystem).toLowerCase() === 'windows');
    expect(report.rows.map((row) => row.id).sort()).toEqual(windows.map((device) => device.id).sort());
    expect(report.rows.some((row) => row.id === lowerCaseWindows[0])).toBe(true);
  });

  it('checks each device on the client when Graph ignores the filter', async () => {
    const report = await loadReport('escrow-gaps', ignoringFilter(harness.client()), { now: () => now });
    expect(queryOf(DEVICES).map((query) => query.get('$filter'))).toEqual([null]);
    expect(findingKeys(report.findings)).toEqual(declared(false));
    const others = new Set(tenant.collections.managedDevices.filter((device) => String(device.operatingSystem).toLowerCase() !== 'windows').map((device) => device.id));
    expect(others.size).toBeGreaterThan(0);
    expect(report.rows.filter((row) => others.has(String(row.id)))).toEqual([]);
  });

  it('fails the load on any other refusal of the device list, without reading it again', async () => {
    harness.sim.faults.add({ path: '/v1.0/deviceManagement/managedDevices', status: 403, times: 1 });
    const report = await loadReport('escrow-gaps', harness.client(), { now: () => now });
    expect(report.state).toBe('load-error');
    expect(queryOf(DEVICES)).toHaveLength(1);
  });
});
