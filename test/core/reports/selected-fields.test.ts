/**
 * Reports 2, 4, 5 and 6 read only the fields they use: each read carries the `$select` its loader
 * declares, the simulator answers it as strictly as Graph does (test/sim/select-and-filter.test.ts),
 * and the same report read without any `$select` (every field) comes out exactly the same, rows,
 * links and findings alike: so no rule, column or link reads a field the request left out.
 */
import { describe, expect, it } from 'vitest';
import type { GraphReader, QueryOptions, RequestOptions } from '../../../src/core/graph/graph-reader.js';
import { POLICY_FIELDS, REQUEST_FIELDS } from '../../../src/core/reports/admin-approval/reads.js';
import { BETA_ASSIGNMENT_FIELDS, FILTER_FIELDS } from '../../../src/core/reports/assignment-hygiene/reads.js';
import { loadReport } from '../../../src/core/reports/registry.js';
import type { ReportId } from '../../../src/core/reports/report-model.js';
import { APP_PERFORMANCE_FIELDS, DEVICE_PERFORMANCE_FIELDS } from '../../../src/core/reports/startup-reliability/reads.js';
import { buildDemoTenant } from '../../../src/sim/tenants/demo-tenant.js';
import { useTestSimulator } from '../../support/simulated-tenant.js';

const now = new Date('2026-11-22T09:00:00Z');
const harness = useTestSimulator({ tenant: buildDemoTenant({ now }) });

/**
 * The reader, with every `$select` taken out of its requests, the assignments read inside `$batch`
 * included: Graph then sends every field.
 */
function selectingEverything(graph: GraphReader): GraphReader {
  const all = (options: RequestOptions = {}): RequestOptions => {
    const { $select: _dropped, ...query }: QueryOptions = options.query ?? {};
    return { ...options, query };
  };
  return {
    get betaCoverage() {
      return graph.betaCoverage;
    },
    coveragePath: (path) => graph.coveragePath(path),
    get: <T>(path: string, options?: RequestOptions) => graph.get<T>(path, all(options)),
    pages: <T>(path: string, options?: RequestOptions) => graph.pages<T>(path, all(options)),
    getAll: <T, R = T>(path: string, options?: RequestOptions, project?: (item: T) => R) => graph.getAll<T, R>(path, all(options), project),
    batchGet: (requests, options) =>
      graph.batchGet(
        requests.map((request) => (request.url.includes('/assignments?') ? { ...request, url: request.url.replace(/\?\$select=[^&]*&?/, '?').replace(/\?$/, '') } : request)),
        options,
      ),
  };
}

/** `$select` by path (`{id}` for one object's), as the simulator logged the report's requests; null where none was sent. */
function selectsByPath(): Record<string, string | null> {
  const selects: Record<string, string | null> = {};
  for (const request of harness.sim.graph.requests) {
    // Group look-ups, and the deleted items of missing groups, are the directory's (their own `$select`), sent inside `$batch`.
    if (request.path.includes('/groups/') || request.path.includes('/directory/deletedItems/') || request.path.endsWith('/$batch')) continue;
    const path = request.path.replace(/\/[0-9a-f-]{36}\//i, '/{id}/');
    const select = new URLSearchParams(request.query).get('$select');
    if (path in selects) expect(selects[path], path).toBe(select);
    selects[path] = select;
  }
  return selects;
}

const join = (fields: readonly string[]) => fields.join(',');

/** What each report selects, by path; report 4's own test (escrow-gaps/simulated.test.ts) checks its reads. */
const EXPECTED: Partial<Record<ReportId, (beta: boolean) => Record<string, string | null>>> = {
  'assignment-hygiene': (beta) => ({
    // The scope tags (`roleScopeTagIds`) on beta only: the v1.0 schema of these two has none.
    [`/${beta ? 'beta' : 'v1.0'}/deviceManagement/deviceConfigurations`]: beta ? 'id,displayName,roleScopeTagIds' : 'id,displayName',
    [`/${beta ? 'beta' : 'v1.0'}/deviceManagement/deviceCompliancePolicies`]: beta ? 'id,displayName,roleScopeTagIds' : 'id,displayName',
    // `settingCount`: what applies reads no settings of a policy that has none.
    '/beta/deviceManagement/configurationPolicies': 'id,name,isAssigned,technologies,templateReference,platforms,settingCount,roleScopeTagIds',
    // Catalogue apps are told by a property of a derived type, which `$select` cannot name on this list.
    [`/${beta ? 'beta' : 'v1.0'}/deviceAppManagement/mobileApps`]: null,
    '/beta/deviceManagement/deviceManagementScripts': 'id,displayName,roleScopeTagIds',
    '/beta/deviceManagement/deviceHealthScripts': 'id,displayName,isGlobalScript,roleScopeTagIds',
    '/beta/deviceAppManagement/mobileAppRelationships': null,
    '/beta/deviceManagement/assignmentFilters': join(FILTER_FIELDS),
    // The audit log, for the findings' stories, without `$select`: its List page documents no query options.
    '/v1.0/deviceManagement/auditEvents': null,
    // The assignable types only beta has.
    '/beta/deviceManagement/groupPolicyConfigurations': 'id,displayName,roleScopeTagIds',
    '/beta/deviceManagement/deviceShellScripts': 'id,displayName,roleScopeTagIds',
    '/beta/deviceManagement/windowsFeatureUpdateProfiles': 'id,displayName,roleScopeTagIds',
    '/beta/deviceManagement/windowsQualityUpdateProfiles': 'id,displayName,roleScopeTagIds',
    '/beta/deviceManagement/windowsQualityUpdatePolicies': 'id,displayName,roleScopeTagIds',
    '/beta/deviceManagement/windowsDriverUpdateProfiles': 'id,displayName,roleScopeTagIds',
    '/beta/deviceManagement/compliancePolicies': 'id,name,platforms,roleScopeTagIds',
    // Report 3's reads of the intents and their templates, shared: no `$select`, as report 3 reads them.
    '/beta/deviceManagement/intents': null,
    '/beta/deviceManagement/templates': null,
    ...(beta
      ? {}
      : {
          // Read again on beta (inside `$batch`) for their filters, as the tenant has filters.
          '/beta/deviceManagement/deviceConfigurations/{id}/assignments': join(BETA_ASSIGNMENT_FIELDS.deviceConfiguration!),
          '/beta/deviceManagement/deviceCompliancePolicies/{id}/assignments': join(BETA_ASSIGNMENT_FIELDS.compliancePolicy!),
          '/beta/deviceAppManagement/mobileApps/{id}/assignments': join(BETA_ASSIGNMENT_FIELDS.mobileApp!),
        }),
  }),
  'admin-approval': () => ({
    '/beta/deviceManagement/operationApprovalPolicies': join(POLICY_FIELDS),
    '/beta/deviceManagement/operationApprovalRequests': join(REQUEST_FIELDS),
  }),
  'startup-reliability': () => ({
    '/v1.0/deviceManagement/userExperienceAnalyticsDevicePerformance': join(DEVICE_PERFORMANCE_FIELDS),
    '/v1.0/deviceManagement/userExperienceAnalyticsAppHealthApplicationPerformance': join(APP_PERFORMANCE_FIELDS),
  }),
};

describe('reads that select only the fields a report uses', () => {
  it.each((['assignment-hygiene', 'admin-approval', 'startup-reliability', 'escrow-gaps'] as const).flatMap((id) => [[id, false] as const, [id, true] as const]))(
    '%s (beta coverage: %s) sends its $select and reads the same as it would with every field',
    async (id: ReportId, betaCoverage: boolean) => {
      const graph = harness.client({ betaCoverage });
      const selected = await loadReport(id, graph, { now: () => now });
      expect(selected.error).toBeNull();
      const selects = selectsByPath();
      const expected = EXPECTED[id];
      if (expected) expect(selects).toEqual(expected(betaCoverage));
      harness.sim.graph.clearLog();

      const everything = await loadReport(id, selectingEverything(graph), { now: () => now });
      expect(Object.values(selectsByPath()).every((select) => select === null)).toBe(true);
      expect(everything.rows).toEqual(selected.rows);
      expect(everything.findings).toEqual(selected.findings);
      expect(everything.notice).toEqual(selected.notice);
    },
  );
});
