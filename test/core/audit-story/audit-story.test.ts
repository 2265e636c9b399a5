import type * as Graph from '@microsoft/microsoft-graph-types';
import { describe, expect, it } from 'vitest';
import {
  MAX_CHANGES_PER_OBJECT,
  MAX_PROPERTIES,
  UNNAMED_ACTOR,
  auditWindowFilter,
  auditWindowStart,
  projectAuditEvent,
  storiesOf,
  withStories,
} from '../../../src/core/audit-story/audit-story.js';
import type { AuditLog } from '../../../src/core/audit-story/audit-story.js';
import type { DerivedReport } from '../../../src/core/reports/report-model.js';

const POLICY = '0f8fad5b-d9cb-469f-a165-70867728950e';
const OTHER = '7c9e6679-7425-40de-944b-e07fc1f90ae7';

/** An auditEvent as List auditEvents documents it (intune-auditing-auditevent). */
function event(overrides: Partial<Graph.AuditEvent> & { at: string; resourceId?: string; upn?: string | null; app?: string | null }): Graph.AuditEvent {
  const { at, resourceId = POLICY, upn = 'dana@contoso.com', app = 'Microsoft Intune portal extension', ...rest } = overrides;
  return {
    id: `${at}-${resourceId}`,
    displayName: 'Patch DeviceManagementConfigurationPolicy',
    componentName: 'DeviceConfiguration',
    activity: 'Patch DeviceManagementConfigurationPolicy',
    activityDateTime: at,
    activityType: 'Patch DeviceManagementConfigurationPolicy',
    activityOperationType: 'Patch',
    activityResult: 'Success',
    correlationId: '2a7e1f34-0c51-4b8e-9d6a-3f2b1c0d9e8f',
    category: 'DeviceConfiguration',
    actor: {
      auditActorType: 'ItPro',
      userPrincipalName: upn,
      applicationDisplayName: app,
      applicationId: null,
      servicePrincipalName: null,
      userPermissions: [],
      ipAddress: null,
      userId: null,
    },
    resources: [
      {
        resourceId,
        displayName: 'Firewall - Branch offices',
        auditResourceType: 'DeviceManagementConfigurationPolicy',
        modifiedProperties: [{ displayName: 'Settings[1].SettingInstance.ChoiceSettingValue.Value', oldValue: 'x_true', newValue: 'x_false' }],
      },
    ],
    ...rest,
  };
}

const derived = (subjectIds: string[]): DerivedReport => ({
  state: 'loaded',
  notice: null,
  columns: [],
  rows: [],
  findings: subjectIds.map((subjectId) => ({ kind: 'firewall-profile-off', subjectId, subjectName: subjectId, detail: 'public off' })),
});

const log = (events: Graph.AuditEvent[]): AuditLog => ({ ok: true, value: { since: '2026-01-01T00:00:00.000Z', entries: events.map(projectAuditEvent) } });

describe("a finding's last change", () => {
  it('is the newest successful change of its object, whatever order the log sends', () => {
    const result = withStories(
      derived([POLICY]),
      log([
        event({ at: '2026-11-10T09:00:00Z', upn: 'alex@contoso.com' }),
        event({ at: '2026-11-20T14:02:00Z', upn: 'dana@contoso.com' }),
        event({ at: '2026-11-15T10:00:00Z', upn: 'lee@contoso.com' }),
      ]),
    );
    expect(result.findings[0]!.lastChange).toEqual({ at: '2026-11-20T14:02:00.000Z', by: 'dana@contoso.com', activity: 'Patch DeviceManagementConfigurationPolicy' });
    expect(result.auditLog).toMatchObject({ state: 'read' });
    const changes = result.auditLog!.state === 'read' ? result.auditLog!.changes[POLICY]! : [];
    expect(changes.map((change) => change.by)).toEqual(['dana@contoso.com', 'lee@contoso.com', 'alex@contoso.com']);
    expect(changes[0]!.properties).toEqual([{ name: 'Settings[1].SettingInstance.ChoiceSettingValue.Value', oldValue: 'x_true', newValue: 'x_false' }]);
  });

  it('is never a failed attempt, which changed nothing', () => {
    const result = withStories(
      derived([POLICY]),
      log([event({ at: '2026-11-20T14:02:00Z', upn: 'megan@contoso.com', activityResult: 'Failure' }), event({ at: '2026-11-10T09:00:00Z', upn: 'alex@contoso.com' })]),
    );
    expect(result.findings[0]!.lastChange?.by).toBe('alex@contoso.com');
    const onlyFailed = withStories(
      derived([POLICY]),
      log([event({ at: '2026-11-20T14:02:00Z', activityResult: 'Failure' }), event({ at: '2026-11-21T00:00:00Z', activityResult: null })]),
    );
    expect(onlyFailed.findings[0]!.lastChange).toBeUndefined();
    expect(onlyFailed.auditLog).toEqual({ state: 'read', since: '2026-01-01T00:00:00.000Z', changes: {} });
  });

  it("names the user, not the portal's app, and an app that acted alone by its name", () => {
    const byApp = withStories(derived([POLICY]), log([event({ at: '2026-11-20T14:02:00Z', upn: null, app: 'Contoso Configuration Sync', activityResult: 'success' })]));
    expect(byApp.findings[0]!.lastChange?.by).toBe('Contoso Configuration Sync');
    // A change the log names no one for is still the last change: an older, named one never stands in for it.
    const byNobody = withStories(
      derived([POLICY]),
      log([event({ at: '2026-11-20T14:02:00Z', upn: null, app: null }), event({ at: '2026-11-10T09:00:00Z', upn: 'alex@contoso.com' })]),
    );
    expect(byNobody.findings[0]!.lastChange).toMatchObject({ at: '2026-11-20T14:02:00.000Z', by: UNNAMED_ACTOR });
  });

  it("matches the object's id without case, and only its own events", () => {
    const result = withStories(
      derived([POLICY, OTHER]),
      log([event({ at: '2026-11-20T14:02:00Z', resourceId: POLICY.toUpperCase() }), event({ at: '2026-11-21T00:00:00Z', resourceId: '11111111-2222-4333-8444-555555555555' })]),
    );
    expect(result.findings.map((finding) => finding.lastChange?.at ?? null)).toEqual(['2026-11-20T14:02:00.000Z', null]);
    expect(Object.keys(result.auditLog!.state === 'read' ? result.auditLog!.changes : {})).toEqual([POLICY]);
  });

  it('keeps the JSON bounded: the last five changes per object, ten properties each', () => {
    const many = Array.from({ length: 8 }, (_, day) =>
      event({
        at: `2026-11-${String(day + 10)}T00:00:00Z`,
        resources: [
          {
            resourceId: POLICY,
            modifiedProperties: Array.from({ length: 30 }, (__, index) => ({ displayName: `p${index}`, oldValue: 'a'.repeat(500), newValue: null })),
          },
        ],
      }),
    );
    const result = withStories(derived([POLICY]), log(many));
    const changes = result.auditLog!.state === 'read' ? result.auditLog!.changes[POLICY]! : [];
    expect(changes).toHaveLength(MAX_CHANGES_PER_OBJECT);
    expect(changes[0]!.at).toBe('2026-11-17T00:00:00.000Z');
    expect(changes[0]!.properties).toHaveLength(MAX_PROPERTIES);
    expect(changes[0]!.properties[0]!.oldValue!.length).toBe(200);
  });

  it('leaves the findings as they are when the log could not be read, and says so in a notice, not an error', () => {
    const result = withStories({ ...derived([POLICY]), notice: 'A caveat.' }, { ok: false, reason: 'Graph answered 403' });
    expect(result.findings[0]).not.toHaveProperty('lastChange');
    expect(result.state).toBe('loaded');
    expect(result.notice).toBe("A caveat. Who last changed these findings' objects, and when, could not be read from the Intune audit log (Graph answered 403).");
    expect(result.auditLog).toEqual({ state: 'unreadable', reason: 'Graph answered 403' });
    // Without findings there is no story to miss: no notice.
    expect(withStories(derived([]), { ok: false, reason: 'Graph answered 403' }).notice).toBeNull();
    // A load that read no log is unchanged.
    expect(withStories(derived([POLICY]), undefined)).toEqual(derived([POLICY]));
  });

  it('finds the same stories in a log of many objects as `storiesOf` alone', () => {
    const stories = storiesOf([event({ at: '2026-11-20T14:02:00Z' }), event({ at: '2026-11-19T00:00:00Z', resourceId: OTHER })].map(projectAuditEvent), [OTHER]);
    expect([...stories.keys()]).toEqual([OTHER]);
  });
});

describe("the audit log's window", () => {
  const now = new Date('2026-11-22T09:00:00Z');

  it('starts a day before the oldest object’s last modification', () => {
    expect(auditWindowStart(['2026-11-10T00:00:00Z', '2026-10-01T12:00:00Z'], now).toISOString()).toBe('2026-09-30T12:00:00.000Z');
  });

  it("never reaches past the log's year, and reads the year when an object's modification is unknown", () => {
    expect(auditWindowStart(['2020-01-01T00:00:00Z'], now).toISOString()).toBe('2025-11-22T09:00:00.000Z');
    expect(auditWindowStart(['2026-11-10T00:00:00Z', null], now).toISOString()).toBe('2025-11-22T09:00:00.000Z');
    expect(auditWindowStart(['0001-01-01T00:00:00Z'], now).toISOString()).toBe('2025-11-22T09:00:00.000Z');
  });

  it('is asked as a range on activityDateTime, in whole seconds', () => {
    expect(auditWindowFilter(new Date('2026-09-30T12:00:00.123Z'))).toBe('activityDateTime ge 2026-09-30T12:00:00Z');
  });
});
