/**
 * What a report plants in the demo tenant ("Contoso (demo)", which `npm start` serves without a
 * tenant and every test reads): its records, and the findings they must make. Each report's folder
 * holds its own (`demo.ts`); the simulator builds the tenant's directory, then plants every report's
 * steps through this interface, which it implements (src/sim/tenants/demo-tenant.ts).
 */

/** A record as Graph returns it, as the demo tenant serves it: the entity's JSON, navigation properties inline. */
export type DemoRecord = { id: string } & Record<string, unknown>;

/**
 * The demo tenant's groups, which every report may assign to or name as approvers. `emptyGroup`
 * and `emptyApprovers` have no members; `deletedGroup` and `retiredGroup` are ids that assignments
 * still name but the directory no longer holds.
 */
export type DemoGroup = 'allStaff' | 'pilot' | 'finance' | 'kioskExclusions' | 'helpdeskLeads' | 'emptyGroup' | 'emptyApprovers' | 'deletedGroup' | 'retiredGroup';

/** The demo tenant as a report's step plants into it. */
export interface DemoTenantBuilder<Kind extends string = string> {
  /** The instant the scenario's ages are relative to (a connector's last contact, a request's date). */
  readonly now: Date;
  /** The tenant's one seeded sequence: every id and draw takes the next value (see `DemoStep`). */
  random(): number;
  /** A version-4-shaped GUID from that sequence. */
  guid(): string;
  /** One of `items`, drawn from that sequence. */
  pick<T>(items: readonly T[]): T;
  /** The directory's user object ids. */
  readonly users: readonly string[];
  readonly groups: Readonly<Record<DemoGroup, string>>;
  /**
   * Adds a group to the directory, its members the first `memberCount` users, or else the users
   * and groups named (a group among another's members is nested in it), and returns its id
   * (drawn from the sequence). `kind` is what Graph's `groupTypes`, `mailEnabled` and
   * `securityEnabled` make it (learn.microsoft.com/graph/api/resources/groups-overview); a
   * security group unless said.
   */
  addGroup(
    group: { displayName: string; kind?: 'security' | 'microsoft365' | 'mailEnabledSecurity' | 'distribution' } & (
      { memberCount: number } | { userIds: readonly string[]; groupIds?: readonly string[] }
    ),
  ): string;
  /**
   * Adds a soft-deleted group to the directory's deleted items, deleted `deletedDaysAgo` days
   * before `now`, and returns its id (drawn from the sequence): `GET /groups/{id}` answers 404 for
   * it and `GET /directory/deletedItems/{id}` returns it, restorable for 30 days
   * (learn.microsoft.com/graph/api/resources/directory).
   */
  addDeletedGroup(group: { displayName: string; deletedDaysAgo: number }): string;
  /** Adds records to a collection the simulator serves, by its resource name (`managedDevices`). */
  add(collection: string, ...records: DemoRecord[]): void;
  /** The records a collection holds so far, planted by this report or one before it (report 6 reads report 4's devices). */
  records(collection: string): readonly DemoRecord[];
  /** Sets a singleton the simulator serves, by its resource name (`windowsAutopilotSettings`). */
  setSingleton(name: string, record: DemoRecord): void;
  /**
   * A finding the records just planted must make: the report finds exactly what it declares, no
   * more and no less (test/core/reports/demo-reports.test.ts). `coverage` marks a finding made only
   * when the report reads `/beta` (an object `/v1.0` leaves out), or only when it reads `/v1.0`.
   */
  declare(kind: Kind, subjectId: string, coverage?: 'v1.0' | 'beta'): void;
  /**
   * A finding another report makes of a record this report planted: report 2 judges every settings
   * catalog policy's assignments, so report 3's policies that reach no one are its findings too.
   * `report` is a report's id (report-model.ts, `ReportId`, not imported: the model imports this file).
   */
  declareFor(report: string, kind: string, subjectId: string): void;
}

/**
 * One step of a report's demo. Every id and every draw comes from one seeded sequence, so the
 * tenant runs all reports' steps in the order of `step` (by the registry's order where two share
 * one), and a record added anywhere but at the end would change every id after it. A new report,
 * or new records for a report, take a step after the highest in use (17), so that nothing planted
 * before changes.
 */
export interface DemoStep<Kind extends string = string> {
  step: number;
  plant(tenant: DemoTenantBuilder<Kind>): void;
}
