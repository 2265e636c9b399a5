import { describe, expect, it } from 'vitest';
import { GraphError } from '../../../../src/core/graph/graph-error.js';
import type { BatchOptions, BatchOutcome, BatchSubRequest, GraphPage, GraphReader, PagesOptions } from '../../../../src/core/graph/graph-reader.js';
import { deriveAssignmentHygiene } from '../../../../src/core/reports/assignment-hygiene/derive.js';
import { loadAssignments } from '../../../../src/core/reports/assignment-hygiene/load.js';
import type { DeriveContext } from '../../../../src/core/reports/report-model.js';
import { DEFAULT_THRESHOLDS } from '../../../../src/core/reports/thresholds.js';

/**
 * Report 2 on /v1.0 coverage (docs/finding-rules.md, report 2, "Assignment filters"): when the
 * tenant has filters, an object with a target a filter can be on has its assignments read again on
 * beta (List deviceConfigurationAssignments and its siblings, ?view=graph-rest-beta) through
 * `$batch`, each answer's nextLink followed to the last page; a failed re-read leaves that object
 * "could not check". Records are shaped as those pages document them.
 */

const context: DeriveContext = { now: new Date('2026-11-22T09:00:00Z'), thresholds: DEFAULT_THRESHOLDS };
const CORPORATE = 'f0000000-0000-4000-8000-00000000000a';
const FILTERS = [
  { id: CORPORATE, displayName: 'Corporate Windows', platform: 'windows10AndLater', assignmentFilterManagementType: 'devices', rule: '(device.deviceOwnership -eq "Corporate")' },
];
const id = (n: number) => `0f8fad5b-d9cb-469f-a165-${n.toString().padStart(12, '0')}`;

type Filter = [string, 'include' | 'exclude'] | 'none';
/** A target as /v1.0 sends it (no filter fields), or as beta does. */
const target = (kind: 'allLicensedUsers' | 'allDevices', filter?: Filter) => ({
  '@odata.type': `#microsoft.graph.${kind}AssignmentTarget`,
  ...(filter === undefined
    ? {}
    : filter === 'none'
      ? { deviceAndAppManagementAssignmentFilterId: null, deviceAndAppManagementAssignmentFilterType: 'none' }
      : { deviceAndAppManagementAssignmentFilterId: filter[0], deviceAndAppManagementAssignmentFilterType: filter[1] }),
});
const both = (users?: Filter, devices?: Filter, intents: [string?, string?] = []) => [
  { id: 'a_0', ...(intents[0] ? { intent: intents[0] } : {}), target: target('allLicensedUsers', users) },
  { id: 'a_1', ...(intents[1] ? { intent: intents[1] } : {}), target: target('allDevices', devices) },
];

interface Tenant {
  profiles?: Array<{ id: string; displayName: string; assignments: unknown[] }>;
  apps?: Array<{ id: string; displayName: string; assignments: unknown[] }>;
  filters?: unknown[] | GraphError;
  /** Beta assignments by object id: pages of items, or a failure. */
  beta?: Record<string, unknown[][] | GraphError>;
  betaCoverage?: boolean;
}

function reader(tenant: Tenant): GraphReader & { paths: string[]; batches: BatchSubRequest[][] } {
  const paths: string[] = [];
  const batches: BatchSubRequest[][] = [];
  const notFound = (path: string) => new GraphError({ kind: 'http', status: 404, code: 'ResourceNotFound', message: 'not found', method: 'GET', path, attempts: 1 });
  const betaPages = (path: string) => tenant.beta?.[path.match(/^\/beta\/.*\/([^/]+)\/assignments$/)?.[1] ?? ''];
  async function* pages<T>(path: string, options?: PagesOptions): AsyncGenerator<GraphPage<T>> {
    paths.push(path);
    if (options?.after) {
      // The rest of a list whose first page came in a `$batch` answer: the page the link names.
      const answer = betaPages(path);
      if (!answer || answer instanceof GraphError) throw answer ?? notFound(path);
      const from = Number(new URL(options.after).searchParams.get('page'));
      for (const [index, items] of answer.slice(from).entries()) yield { items: items as T[], index: index + 1 };
      return;
    }
    if (path.endsWith('/deviceManagement/deviceConfigurations')) return yield { items: (tenant.profiles ?? []) as T[], index: 0 };
    if (path.endsWith('/deviceAppManagement/mobileApps')) return yield { items: (tenant.apps ?? []) as T[], index: 0 };
    if (path === '/beta/deviceManagement/assignmentFilters') {
      if (tenant.filters instanceof GraphError) throw tenant.filters;
      return yield { items: (tenant.filters ?? FILTERS) as T[], index: 0 };
    }
    return yield { items: [], index: 0 };
  }
  async function batchGet(requests: readonly BatchSubRequest[], options?: BatchOptions): Promise<Map<string, BatchOutcome>> {
    batches.push([...requests]);
    const outcomes = new Map<string, BatchOutcome>();
    for (const request of requests) {
      const path = `/${options?.version ?? 'v1.0'}${request.url.split('?')[0]}`;
      paths.push(path);
      const answer = betaPages(path);
      if (!answer) outcomes.set(request.id, { ok: false, error: notFound(path) });
      else if (answer instanceof GraphError) outcomes.set(request.id, { ok: false, error: answer });
      else
        outcomes.set(request.id, {
          ok: true,
          status: 200,
          body: { value: answer[0] ?? [], ...(answer.length > 1 ? { '@odata.nextLink': `https://graph.microsoft.com${path}?page=1` } : {}) },
        });
    }
    return outcomes;
  }
  return {
    paths,
    batches,
    betaCoverage: tenant.betaCoverage === true,
    coveragePath: (path) => (tenant.betaCoverage && !path.includes('configurationPolicies') ? path.replace('/v1.0/', '/beta/') : path),
    get: () => Promise.reject(new Error('not read')),
    pages,
    getAll: () => Promise.reject(new Error('not read')),
    batchGet,
  };
}

const failure = (status: number) => new GraphError({ kind: 'http', status, code: 'InternalServerError', message: 'failed', method: 'GET', path: '/beta/x', attempts: 1 });
const betaPath = (objectId: string) => `/beta/deviceManagement/deviceConfigurations/${objectId}/assignments`;

async function judge(tenant: Tenant) {
  const graph = reader(tenant);
  const records = await loadAssignments({ graph });
  const report = deriveAssignmentHygiene(records, context);
  const row = (name: string) => report.rows.find((candidate) => candidate.name === name)!;
  const kinds = (name: string) => report.findings.filter((finding) => finding.subjectName.endsWith(`: ${name}`)).map((finding) => finding.kind);
  return { graph, records, report, row, kinds };
}

describe('report 2 reads on beta the assignments of a /v1.0 object whose All users + All devices verdict depends on filters', () => {
  it('no filter on either target, as beta shows (over two pages): a finding', async () => {
    const { graph, row, kinds } = await judge({
      profiles: [{ id: id(1), displayName: 'Endpoint protection', assignments: both() }],
      beta: { [id(1)]: [[both('none', 'none')[0]], [both('none', 'none')[1]]] },
    });
    expect(graph.paths).toContain(betaPath(id(1)));
    expect(kinds('Endpoint protection')).toEqual(['all-users-and-all-devices']);
    expect(row('Endpoint protection').assignments).toBe('Include: All users; All devices');
  });

  it('the same filter, include on one and exclude on the other: kept apart, no finding', async () => {
    const { kinds, row } = await judge({
      profiles: [{ id: id(1), displayName: 'Split', assignments: both() }],
      beta: { [id(1)]: [both([CORPORATE, 'include'], [CORPORATE, 'exclude'])] },
    });
    expect(kinds('Split')).toEqual([]);
    expect(row('Split').status).toBe('All users and All devices are kept apart by filter "Corporate Windows" (include on one, exclude on the other)');
  });

  it('a filter list that could not be read still sends the re-read: no filter on either side is a finding, a filter is "could not check"', async () => {
    const { graph, kinds, row } = await judge({
      profiles: [
        { id: id(1), displayName: 'Unfiltered', assignments: both() },
        { id: id(2), displayName: 'Filtered', assignments: both() },
      ],
      filters: failure(500),
      beta: { [id(1)]: [both('none', 'none')], [id(2)]: [both([CORPORATE, 'include'], 'none')] },
    });
    expect(graph.paths).toEqual(expect.arrayContaining([betaPath(id(1)), betaPath(id(2))]));
    expect(kinds('Unfiltered')).toEqual(['all-users-and-all-devices']);
    expect(kinds('Filtered')).toEqual([]);
    expect(row('Filtered').status).toBe('Could not check: All users and All devices may overlap, but a filter could not be read (Graph answered 500)');
  });

  it.each([
    ['answers 500', failure(500), 'Graph answered 500'],
    ['answers 404', undefined, 'Graph answered 404'],
    [
      'sends a malformed answer',
      new GraphError({ kind: 'malformed-response', status: 200, message: 'not JSON', method: 'GET', path: '/beta/x', attempts: 1 }),
      'Graph sent a malformed answer',
    ],
  ] as const)("a re-read that %s leaves that object 'could not check', never a finding, and the report loads", async (_label, answer, reason) => {
    const { kinds, row, report } = await judge({
      profiles: [
        { id: id(1), displayName: 'Failing', assignments: both() },
        { id: id(2), displayName: 'Read', assignments: both() },
      ],
      beta: { ...(answer ? { [id(1)]: answer } : {}), [id(2)]: [both('none', 'none')] },
    });
    expect(kinds('Failing')).toEqual([]);
    expect(row('Failing').status).toBe(`Could not check: All users and All devices may overlap, but its assignments could not be read on /beta to see their filters (${reason})`);
    expect(row('Failing').statusTone).toBe('neutral');
    expect(row('Failing').assignments).toBe('Include: All users; All devices');
    expect(kinds('Read')).toEqual(['all-users-and-all-devices']);
    expect(report.state).toBe('loaded');
  });

  it('an id that is not a GUID never goes into a path: that object is "could not check"', async () => {
    const { graph, row } = await judge({ profiles: [{ id: 'legacy-1', displayName: 'Odd id', assignments: both() }] });
    expect(graph.paths.filter((path) => path.endsWith('/assignments'))).toEqual([]);
    expect(row('Odd id').status).toBe('Could not check: All users and All devices may overlap, but its id "legacy-1" is not one Graph\'s assignments path takes');
  });

  it('reads no assignments again where no target can carry a filter that matters: exclusions only, or none', async () => {
    const { graph, kinds } = await judge({
      profiles: [
        { id: id(1), displayName: 'Exclusions only', assignments: [{ id: 'a_0', target: { '@odata.type': '#microsoft.graph.exclusionGroupAssignmentTarget', groupId: id(9) } }] },
        { id: id(2), displayName: 'No targets', assignments: [] },
      ],
    });
    expect(graph.paths.filter((path) => path.endsWith('/assignments'))).toEqual([]);
    expect(kinds('No targets')).toEqual(['unassigned']);
  });

  it('reads again, when the tenant has filters, every object a filter could be on: one target, or two with different intents', async () => {
    const { graph, kinds } = await judge({
      profiles: [{ id: id(1), displayName: 'All users only', assignments: [both()[0]] }],
      // Different intents are a finding whatever the filters.
      apps: [{ id: id(3), displayName: 'Travel', assignments: both(undefined, undefined, ['required', 'uninstall']) }],
      beta: { [id(1)]: [[both([CORPORATE, 'exclude'])[0]]], [id(3)]: [both('none', 'none', ['required', 'uninstall'])] },
    });
    expect(graph.paths.filter((path) => path.endsWith('/assignments'))).toEqual([betaPath(id(1)), `/beta/deviceAppManagement/mobileApps/${id(3)}/assignments`]);
    expect(kinds('Travel')).toEqual(['all-users-and-all-devices']);
  });

  it('reads none when the tenant has no filter at all, or when the lists were read on beta', async () => {
    const noFilters = await judge({ profiles: [{ id: id(1), displayName: 'P', assignments: both() }], filters: [] });
    expect(noFilters.graph.paths.filter((path) => path.endsWith('/assignments'))).toEqual([]);
    expect(noFilters.kinds('P')).toEqual(['all-users-and-all-devices']);
    const onBeta = await judge({ profiles: [{ id: id(1), displayName: 'P', assignments: both('none', 'none') }], betaCoverage: true });
    expect(onBeta.graph.paths.filter((path) => path.endsWith('/assignments'))).toEqual([]);
    expect(onBeta.kinds('P')).toEqual(['all-users-and-all-devices']);
  });

  it("reads an app's assignments on the apps path, all of them in one `$batch` call (the client sends it twenty to a request)", async () => {
    const apps = Array.from({ length: 30 }, (_, n) => ({ id: id(n + 1), displayName: `App ${n + 1}`, assignments: both(undefined, undefined, ['required', 'required']) }));
    const { graph, kinds } = await judge({
      apps,
      beta: Object.fromEntries(apps.map((app) => [app.id, [both('none', 'none', ['required', 'required'])]])),
    });
    const reread = graph.paths.filter((path) => path.endsWith('/assignments'));
    expect(new Set(reread)).toEqual(new Set(apps.map((app) => `/beta/deviceAppManagement/mobileApps/${app.id}/assignments`)));
    expect(reread).toHaveLength(30);
    expect(graph.batches).toHaveLength(1);
    expect(graph.batches[0]![0]!.url).toBe(`/deviceAppManagement/mobileApps/${id(1)}/assignments?$select=id,intent,target`);
    for (const app of apps) expect(kinds(app.displayName)).toEqual(['all-users-and-all-devices']);
  });
});
