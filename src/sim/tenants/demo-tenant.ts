import { plantAppliesDemo } from '../../core/applies/demo.js';
import { plantViewerScopeDemo } from '../../core/viewer-scope/demo.js';
import { plantChangeFeedDemo } from '../../core/changes/demo.js';
import { REPORTS } from '../../core/reports/registry.js';
import { optionalPermissionsUsed, permissionsAskedFor } from '../../core/upstream-reads.js';
import type { ReportRegistry } from '../../core/reports/registry.js';
import type { DemoGroup, DemoStep, DemoTenantBuilder } from '../../core/reports/report-demo.js';
import type { ReportId } from '../../core/reports/report-model.js';
import { pick, seededGuid, seededRandom } from './seeded-random.js';
import type { SimResourceEntry } from '../resources/resource-model.js';
import { COLLECTION_NAMES, SINGLETON_NAMES, emptyCollections } from './sim-tenant.js';
import type { DeclaredFinding, GraphRecord, SimDeletedGroup, SimEntraDevice, SimGroup, SimTenant } from './sim-tenant.js';

/**
 * The application permissions the demo's app registration asks for, as Entra issues the role
 * values: those the seven reports and "what applies" ask for in their declared reads (src/core/upstream-reads.ts).
 */
export const DEMO_GRANTED_ROLES: readonly string[] = permissionsAskedFor(REPORTS);

/**
 * What the demo tenant's administrator granted: what the app asks for, and the optional permissions
 * its reads can use (`Device.Read.All`, README, "Optional permission: device groups"), so that the
 * demo shows the whole answer of "what applies" to a device; `--deny Device.Read.All` shows it
 * without (src/server/demo-switches.ts).
 */
export function demoGrantedRoles(registry: ReportRegistry = REPORTS): string[] {
  return [...permissionsAskedFor(registry), ...optionalPermissionsUsed(registry)];
}

export interface DemoTenantOptions {
  seed?: number;
  /** Ages are relative to this instant (connector staleness, request windows). */
  now?: Date;
  /** The reports whose records the tenant holds: the registry's seven unless another registry is given. */
  registry?: ReportRegistry;
  /**
   * Resources the simulator serves besides its own, for a report that exists only in a test: its
   * demo steps may plant records into their collections, and the tenant carries them to the
   * simulator (`SimTenant.resources`).
   */
  resources?: readonly SimResourceEntry[];
}

/** The demo tenant's id: fixed, so its state is kept under the same key (`demo-<id>`) at every start. */
export const DEMO_TENANT_ID = '8a4f0c52-6d2e-4e91-b7a3-5c1d9e0f2b64';

/**
 * "Contoso (demo)": a few hundred devices in which every finding of every report occurs, next to
 * look-alikes that must not be findings (a warn-mode ASR rule, an unconfigured firewall profile,
 * a policy assigned to one deleted and one live group, a baseline on the newest version). The
 * tenant builds the directory every report may name (users and groups); each report plants its
 * own records and declares the findings they make (its folder's `demo.ts`, through
 * `DemoTenantBuilder`), so tests can compare what the reports find with it.
 */
export function buildDemoTenant(options: DemoTenantOptions = {}): SimTenant {
  const random = seededRandom(options.seed ?? 20261121);
  const now = options.now ?? new Date();
  const guid = () => seededGuid(random);
  const collections = emptyCollections();
  const singletons: SimTenant['singletons'] = {};
  const groups = new Map<string, SimGroup>();
  const deletedGroups = new Map<string, SimDeletedGroup>();
  const declared: DeclaredFinding[] = [];
  const extraResources = options.resources ?? [];
  const collectionNames = new Set<string>([...COLLECTION_NAMES, ...extraResources.filter((resource) => resource.kind === 'collection').map((resource) => resource.source)]);
  const singletonNames = new Set<string>([...SINGLETON_NAMES, ...extraResources.filter((resource) => resource.kind === 'singleton').map((resource) => resource.source)]);
  /** A collection the simulator serves, made empty the first time a report's step names one of the tenant's own resources. */
  const collection = (name: string): GraphRecord[] => {
    if (!collectionNames.has(name)) throw new Error(`the simulator serves no collection "${name}"`);
    return (collections[name] ??= []);
  };

  // ---- the directory -----------------------------------------------------------------------
  const users = Array.from({ length: 60 }, () => guid());
  const group = (displayName: string, memberCount: number): string => {
    const id = guid();
    groups.set(id, { id, displayName, members: users.slice(0, memberCount).map((member) => ({ id: member, type: 'user' })) });
    return id;
  };
  const directory: Record<DemoGroup, string> = {
    allStaff: group('All Staff', 60),
    pilot: group('Windows Pilot Ring', 12),
    finance: group('Finance Devices', 25),
    kioskExclusions: group('Kiosk Exclusions', 4),
    helpdeskLeads: group('Helpdesk Leads', 3),
    emptyGroup: group('Android Legacy Users', 0),
    emptyApprovers: group('Script Approvers', 0),
    // Referenced by assignments but gone from the directory.
    deletedGroup: guid(),
    retiredGroup: guid(),
  };

  // ---- each report's records, step by step in one seeded sequence (report-demo.ts, DemoStep) ---
  const builder = (report: ReportId): DemoTenantBuilder => ({
    now,
    random,
    guid,
    pick: (items) => pick(random, items),
    users,
    groups: directory,
    addGroup: (group) => {
      const id = guid();
      const members: SimGroup['members'] =
        'memberCount' in group
          ? users.slice(0, group.memberCount).map((member) => ({ id: member, type: 'user' as const }))
          : [...group.userIds.map((member) => ({ id: member, type: 'user' as const })), ...(group.groupIds ?? []).map((member) => ({ id: member, type: 'group' as const }))];
      groups.set(id, { id, displayName: group.displayName, members, ...(group.kind ? { kind: group.kind } : {}) });
      return id;
    },
    addDeletedGroup: ({ displayName, deletedDaysAgo }) => {
      const id = guid();
      deletedGroups.set(id, { id, displayName, deletedDateTime: new Date(now.getTime() - deletedDaysAgo * 86_400_000).toISOString() });
      return id;
    },
    add: (name, ...records) => void collection(name).push(...records),
    records: (name) => collection(name),
    setSingleton: (name, record) => {
      if (!singletonNames.has(name)) throw new Error(`the simulator serves no singleton "${name}"`);
      singletons[name] = record;
    },
    declare: (kind, subjectId, coverage) => void declared.push({ report, kind, subjectId, ...(coverage ? { coverage } : {}) }),
    declareFor: (other, kind, subjectId) => void declared.push({ report: other, kind, subjectId }),
  });
  const steps = (options.registry ?? REPORTS).definitions.flatMap((definition) => definition.demo.map((step: DemoStep) => ({ step, tenant: builder(definition.id) })));
  // A stable sort: steps that share a number keep the registry's order.
  for (const { step, tenant } of steps.sort((a, b) => a.step.step - b.step.step)) step.plant(tenant);
  // "What applies" (src/core/applies/demo.ts): nested groups, an exclusion through one, a group
  // whose members cannot be read, filters and primary users, after the reports' records.
  // Its ids come from a sequence of its own, so a report added to the registry moves none of them.
  const appliesRandom = seededRandom((options.seed ?? 20261121) + 1);
  const appliesGuid = () => seededGuid(appliesRandom);
  const reportRecords = builder('assignment-hygiene');
  const entraDevices = new Map<string, SimEntraDevice>();
  plantAppliesDemo({
    now,
    guid: appliesGuid,
    users,
    groups: directory,
    addGroup: ({ displayName, userIds = [], deviceIds = [], groupIds = [], membersFault, visibility }) => {
      const id = appliesGuid();
      const members = [
        ...userIds.map((member) => ({ id: member, type: 'user' as const })),
        ...deviceIds.map((member) => ({ id: member, type: 'device' as const })),
        ...groupIds.map((member) => ({ id: member, type: 'group' as const })),
      ];
      groups.set(id, { id, displayName, members, ...(membersFault ? { membersFault } : {}), ...(visibility ? { visibility } : {}) });
      return id;
    },
    addEntraDevice: ({ deviceId, displayName }) => {
      const id = appliesGuid();
      entraDevices.set(deviceId.toLowerCase(), { id, deviceId, displayName });
      return id;
    },
    add: reportRecords.add,
    records: reportRecords.records,
  });

  // The viewer scope (src/core/viewer-scope/demo.ts): scope tags, role assignments, a central and a
  // regional administrator, report 3's policies, some of report 2's objects and report 4's devices
  // tagged by region. A sequence of its own too.
  const scopeRandom = seededRandom((options.seed ?? 20261121) + 2);
  const scopeGuid = () => seededGuid(scopeRandom);
  const viewerScope = plantViewerScopeDemo({
    guid: scopeGuid,
    addGroup: ({ displayName, userIds }) => {
      const id = scopeGuid();
      groups.set(id, { id, displayName, members: userIds.map((member) => ({ id: member, type: 'user' as const })) });
      return id;
    },
    add: reportRecords.add,
    records: reportRecords.records,
  });

  // A week of changes for the change feed (src/core/changes/demo.ts), over the reports' objects. A sequence of its own too.
  const changesRandom = seededRandom((options.seed ?? 20261121) + 3);
  plantChangeFeedDemo({ now, guid: () => seededGuid(changesRandom), groups: directory, add: reportRecords.add, records: reportRecords.records });

  return {
    tenantId: DEMO_TENANT_ID,
    displayName: 'Contoso (demo)',
    domain: 'contoso-demo.onmicrosoft.com',
    collections,
    singletons,
    groups,
    deletedGroups,
    entraDevices,
    // Those of the registry it was built for, so a report added to it is granted what it reads.
    grantedRoles: demoGrantedRoles(options.registry ?? REPORTS),
    declaredFindings: declared,
    demoAdministrators: viewerScope.administrators,
    ...(options.resources ? { resources: options.resources } : {}),
  };
}
