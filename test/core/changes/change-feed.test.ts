import { describe, expect, it } from 'vitest';
import { auditEvent } from '../../../src/core/audit-story/demo-records.js';
import type { AuditEventSpec } from '../../../src/core/audit-story/demo-records.js';
import { MAX_PROPERTIES, projectAuditEvent } from '../../../src/core/audit-story/audit-story.js';
import { NO_NAMES, changeFeed, describeChange, propertyWords } from '../../../src/core/changes/change-feed.js';
import type { ChangeNames } from '../../../src/core/changes/change-feed.js';
import { changesToCsv } from '../../../src/core/changes/change-csv.js';
import { readSince } from '../../../src/core/changes/since.js';
import { CHANGE_FEED_READS } from '../../../src/core/changes/load.js';
import { PRODUCT_READS } from '../../../src/core/upstream-reads.js';
import type * as Graph from '@microsoft/microsoft-graph-types';
import type { AuditEntry } from '../../../src/core/reports/report-model.js';

const NOW = new Date('2026-12-07T12:00:00Z');
const WEEK = { since: new Date('2026-11-30T12:00:00Z') };
const POLICY = '0f8fad5b-d9cb-469f-a165-70867728950e';
const PROFILE = '7c9e6679-7425-40de-944b-e07fc1f90ae7';
const APP = '3b241101-e2bb-4255-8caf-4136c566a962';
const GROUP = '9a3c2d1e-5b4f-4a6e-8d7c-1f2e3d4c5b6a';
const FILTER = 'c1d2e3f4-a5b6-4c7d-8e9f-0a1b2c3d4e5f';
const DANA = { user: 'dana@contoso.com' };
let sequence = 0;

/** One audit event as Graph returns it (auditEvent), projected as a load keeps it. */
function entry(spec: Partial<AuditEventSpec> & Pick<AuditEventSpec, 'resourceType'>): AuditEntry {
  sequence += 1;
  const id = `00000000-0000-4000-8000-${String(sequence).padStart(12, '0')}`;
  return projectAuditEvent(
    auditEvent(id, id, {
      resourceId: POLICY,
      resourceName: 'Firewall - Datacenter',
      operation: 'Patch',
      verb: 'Patch',
      at: '2026-12-06T09:00:00Z',
      actor: DANA,
      result: 'Success',
      ...spec,
    }) as Graph.AuditEvent,
  );
}

const NAMES: ChangeNames = {
  settings: new Map([['vendor_msft_firewall_mdmstore_domainprofile_enablefirewall', 'Enable Domain Network Firewall']]),
  options: new Map([
    ['vendor_msft_firewall_mdmstore_domainprofile_enablefirewall_true', 'True'],
    ['vendor_msft_firewall_mdmstore_domainprofile_enablefirewall_false', 'False'],
  ]),
  byId: new Map([
    [GROUP, 'All Staff'],
    [FILTER, 'Corporate Windows'],
  ]),
};

const feedOf = (entries: AuditEntry[], names: ChangeNames = NAMES, window = WEEK) => changeFeed(entries, window, NOW, names);

describe('the change feed, one kind of change at a time', () => {
  it('names a settings catalog setting and its options, and keeps what the log wrote beside them', () => {
    const [change] = feedOf([
      entry({
        resourceType: 'DeviceManagementConfigurationPolicy',
        properties: [
          { name: 'DeviceManagementAPIVersion', oldValue: '', newValue: '5023-05-01' },
          {
            name: 'Settings[0].SettingInstance.ChoiceSettingValue.Value',
            oldValue: 'vendor_msft_firewall_mdmstore_domainprofile_enablefirewall_true',
            newValue: 'vendor_msft_firewall_mdmstore_domainprofile_enablefirewall_false',
          },
        ],
      }),
    ]).changes;
    expect(change).toMatchObject({
      action: 'changed',
      actionLabel: 'Changed',
      by: 'dana@contoso.com',
      object: { id: POLICY, name: 'Firewall - Datacenter', kind: 'settings-catalog' },
    });
    // The API version is no change of the policy's: left out.
    expect(change!.details).toEqual([
      {
        name: 'Enable Domain Network Firewall',
        before: 'True',
        after: 'False',
        logged: {
          name: 'Settings[0].SettingInstance.ChoiceSettingValue.Value',
          oldValue: 'vendor_msft_firewall_mdmstore_domainprofile_enablefirewall_true',
          newValue: 'vendor_msft_firewall_mdmstore_domainprofile_enablefirewall_false',
        },
      },
    ]);
    expect(describeChange(change!)).toBe('2026-12-06 09:00 UTC: dana@contoso.com: changed settings catalog or endpoint security policy "Firewall - Datacenter"');
  });

  it("says a setting it could not name is one, rather than showing the log's path as its name", () => {
    const [change] = feedOf(
      [
        entry({
          resourceType: 'DeviceManagementConfigurationPolicy',
          properties: [{ name: 'Settings[3].SettingInstance.SimpleSettingValue.Value', oldValue: '5', newValue: '10' }],
        }),
      ],
      NO_NAMES,
    ).changes;
    expect(change!.details[0]).toMatchObject({ name: 'A setting whose name the audit log does not give', before: '5', after: '10' });
  });

  it("puts a classic profile's and a compliance policy's properties in words", () => {
    const changes = feedOf([
      entry({
        resourceId: PROFILE,
        resourceName: 'Windows - Device restrictions',
        resourceType: 'DeviceConfiguration',
        properties: [{ name: 'PasswordMinimumLength', oldValue: '8', newValue: '12' }],
      }),
      entry({
        resourceName: 'Windows - Compliance',
        resourceType: 'DeviceCompliancePolicy',
        at: '2026-12-05T09:00:00Z',
        actor: { app: 'Contoso Compliance Sync', appId: '3d2b6f9e-8a41-4c07-b5e2-71f0c9d8a3b6' },
        properties: [{ name: 'OsMinimumVersion', oldValue: '10.0.19045', newValue: '10.0.22631' }],
      }),
    ]).changes;
    expect(changes.map((change) => [change.object.kindLabel, change.details[0]!.name, change.details[0]!.before, change.details[0]!.after, change.by])).toEqual([
      ['Device configuration profile', 'Password minimum length', '8', '12', 'dana@contoso.com'],
      ['Compliance policy', 'Os minimum version', '10.0.19045', '10.0.22631', 'Contoso Compliance Sync'],
    ]);
    expect(changes[0]!.object.link).toContain(`/configurationId/${PROFILE}`);
  });

  it("names an app's new assignment as the assignment pane does: intent, group, filter and its mode", () => {
    const [change] = feedOf([
      entry({
        resourceId: APP,
        resourceName: '7-Zip',
        resourceType: 'MobileApp',
        operation: 'Action',
        verb: 'Assign',
        properties: [
          { name: 'Assignments[0].Intent', oldValue: '', newValue: 'required' },
          { name: 'Assignments[0].Target.GroupId', oldValue: '', newValue: GROUP },
          { name: 'Assignments[0].Target.DeviceAndAppManagementAssignmentFilterId', oldValue: '', newValue: FILTER },
          { name: 'Assignments[0].Target.DeviceAndAppManagementAssignmentFilterType', oldValue: 'none', newValue: 'include' },
        ],
      }),
    ]).changes;
    expect(change).toMatchObject({ action: 'assignments-changed', object: { kind: 'app', kindLabel: 'App' } });
    expect(change!.details.map((detail) => [detail.name, detail.before, detail.after])).toEqual([
      ['Assignment 1: intent', '', 'Required'],
      ['Assignment 1: group', '', 'All Staff'],
      ['Assignment 1: filter', '', 'Corporate Windows'],
      ['Assignment 1: filter mode', 'No filter', 'Include'],
    ]);
    expect(change!.details[1]!.logged).toEqual({ name: 'Assignments[0].Target.GroupId', oldValue: '', newValue: GROUP });
  });

  it('reads an assignment logged as a resource of its own as added or removed, on its object', () => {
    const changes = feedOf([
      entry({
        resourceId: APP,
        resourceName: 'Contoso CAD',
        resourceType: 'MobileAppAssignment',
        operation: 'Delete',
        verb: 'Delete',
        properties: [{ name: 'Target.GroupId', oldValue: GROUP, newValue: '' }],
      }),
      entry({ resourceId: POLICY, resourceType: 'DeviceManagementConfigurationPolicyAssignment', operation: 'Create', verb: 'Create', at: '2026-12-05T09:00:00Z' }),
    ]).changes;
    expect(changes.map((change) => [change.actionLabel, change.object.kind])).toEqual([
      ['Assignment removed', 'app'],
      ['Assignment added', 'settings-catalog'],
    ]);
    expect(changes[0]!.details[0]).toMatchObject({ name: 'Assignment: group', before: 'All Staff', after: '' });
  });

  it('lists scripts, remediations, baselines and filters, created and deleted objects, each with a link that opens', () => {
    const changes = feedOf([
      entry({ resourceName: 'Set time zone', resourceType: 'DeviceManagementScript', at: '2026-12-06T08:00:00Z' }),
      entry({
        resourceName: 'Restart stopped services',
        resourceType: 'DeviceHealthScript',
        at: '2026-12-06T07:00:00Z',
        properties: [{ name: 'RunSchedule.Interval', oldValue: '1', newValue: '4' }],
      }),
      entry({ resourceName: 'Windows baseline (2019)', resourceType: 'DeviceManagementIntent', at: '2026-12-06T06:00:00Z' }),
      entry({ resourceName: 'Lab devices', resourceType: 'DeviceAndAppManagementAssignmentFilter', at: '2026-12-06T05:00:00Z' }),
      entry({ resourceName: 'Mac onboarding', resourceType: 'DeviceShellScript', operation: 'Create', verb: 'Create', at: '2026-12-06T04:00:00Z' }),
      entry({ resourceId: PROFILE, resourceName: 'Old Wi-Fi', resourceType: 'DeviceConfiguration', operation: 'Delete', verb: 'Delete', at: '2026-12-06T03:00:00Z' }),
    ]).changes;
    expect(changes.map((change) => `${change.actionLabel} ${change.object.kindLabel}`)).toEqual([
      'Changed Platform script (Windows)',
      'Changed Remediation',
      'Changed Security baseline or endpoint security policy (template)',
      'Changed Assignment filter',
      'Created Shell script (macOS)',
      'Deleted Device configuration profile',
    ]);
    expect(changes[1]!.details[0]).toMatchObject({ name: 'Run schedule interval', before: '1', after: '4' });
    // A deleted profile has no page left: its list opens instead.
    expect(changes[5]!.object.link).toMatch(/DevicesMenu\/~\/configuration$/);
    for (const change of changes) expect(change.object.link).toMatch(/^https:\/\/intune\.microsoft\.com\/#view\//);
  });
});

describe('what the log does not carry is said, never invented', () => {
  it('shows a masked value as a secret, and says so', () => {
    const [change] = feedOf([entry({ resourceType: 'DeviceConfiguration', properties: [{ name: 'PreSharedKey', oldValue: '********', newValue: '********' }] })]).changes;
    expect(change!.details[0]).toMatchObject({
      name: 'Pre shared key',
      before: 'a secret (not shown)',
      after: 'a secret (not shown)',
      note: 'the log does not show a secret value',
    });
  });

  it('says a value was cut short, and how many properties were left out', () => {
    const properties = Array.from({ length: MAX_PROPERTIES + 3 }, (_, index) => ({ name: `Property${index}`, oldValue: 'a', newValue: 'b' }));
    properties[0] = { name: 'ScriptContent', oldValue: 'A'.repeat(500), newValue: 'B'.repeat(500) };
    const [change] = feedOf([entry({ resourceType: 'DeviceManagementScript', properties })]).changes;
    expect(change!.details).toHaveLength(MAX_PROPERTIES);
    expect(change!.detailsLeftOut).toBe(3);
    expect(change!.details[0]!.note).toMatch(/cut short/);
    expect(change!.details[0]!.after!.endsWith('…')).toBe(true);
    expect(changesToCsv([change!])).toContain('and 3 more properties the feed does not list');
  });

  it('lists no failed attempt, counts what is not device configuration, and lists an event read twice once', () => {
    const changed = entry({ resourceType: 'DeviceConfiguration' });
    const feed = feedOf([
      changed,
      changed,
      entry({ resourceType: 'DeviceConfiguration', result: 'Failure' }),
      entry({ resourceType: 'ManagedDevice', resourceName: 'DESKTOP-07', operation: 'Action', verb: 'Wipe' }),
    ]);
    expect(feed.changes).toHaveLength(1);
    expect(feed.otherEvents).toBe(1);
  });

  it('keeps to its window: its start in, its end out; newest first', () => {
    const at = (iso: string) => entry({ resourceType: 'DeviceConfiguration', at: iso });
    const feed = feedOf([at('2026-12-01T00:00:00Z'), at('2026-12-03T00:00:00Z'), at('2026-11-30T23:59:59Z'), at('2026-12-02T00:00:00Z')], NAMES, {
      since: new Date('2026-12-01T00:00:00Z'),
      until: new Date('2026-12-03T00:00:00Z'),
    } as typeof WEEK);
    expect(feed.changes.map((change) => change.at)).toEqual(['2026-12-02T00:00:00.000Z', '2026-12-01T00:00:00.000Z']);
    expect(feed).toMatchObject({ since: '2026-12-01T00:00:00.000Z', until: '2026-12-03T00:00:00.000Z' });
  });

  it('finds an object by its name or id and a person by part of their name, whatever the case', () => {
    const entries = [
      entry({ resourceName: 'Firewall - Datacenter', resourceType: 'DeviceManagementConfigurationPolicy' }),
      entry({ resourceId: PROFILE, resourceName: 'Windows - Wi-Fi', resourceType: 'DeviceConfiguration', actor: { user: 'Lee.Gu@contoso.com' } }),
    ];
    const names = (window: Parameters<typeof changeFeed>[1]) => changeFeed(entries, window, NOW).changes.map((change) => change.object.name);
    expect(names({ ...WEEK, object: 'FIREWALL' })).toEqual(['Firewall - Datacenter']);
    expect(names({ ...WEEK, object: PROFILE.toUpperCase() })).toEqual(['Windows - Wi-Fi']);
    expect(names({ ...WEEK, person: 'lee.gu' })).toEqual(['Windows - Wi-Fi']);
    expect(names({ ...WEEK, person: 'nobody' })).toEqual([]);
  });
});

describe('the feed in a spreadsheet', () => {
  it('writes a row per changed property, names first and the logged ids after, a formula in a name made inert', () => {
    const csv = changesToCsv(
      feedOf([
        entry({ resourceName: '=HYPERLINK("http://evil")', resourceType: 'DeviceConfiguration', properties: [{ name: 'PasswordMinimumLength', oldValue: '8', newValue: '12' }] }),
      ]).changes,
    );
    const [header, row] = csv.trimEnd().split('\r\n');
    expect(header).toBe('When (UTC),Changed by,Action,Object type,Object,Setting or property,Before,After,Note,Object id,Logged property,Logged before,Logged after,Link');
    expect(row).toContain(`"'=HYPERLINK(""http://evil"")"`);
    expect(row).toContain('Password minimum length,8,12,,');
    expect(row).toContain(',PasswordMinimumLength,8,12,https://intune.microsoft.com/');
  });
});

describe('property names in words', () => {
  it.each([
    ['PasswordMinimumLength', 'Password minimum length'],
    ['RunSchedule.Interval', 'Run schedule interval'],
    ['$Collection.RoleScopeTagIds[0]', 'Scope tags'],
    ['DisplayName', 'Name'],
    ['BitLockerEnabled', 'Bit locker enabled'],
    ['OSVersion', 'OS version'],
    ['description', 'Description'],
  ])('%s reads "%s"', (logged, words) => {
    expect(propertyWords(logged)).toBe(words);
  });
});

describe('how far back a feed starts', () => {
  it.each([
    ['24h', '2026-12-06T12:00:00.000Z'],
    ['7d', '2026-11-30T12:00:00.000Z'],
    ['90m', '2026-12-07T10:30:00.000Z'],
    ['2w', '2026-11-23T12:00:00.000Z'],
    ['2026-12-01', '2026-12-01T00:00:00.000Z'],
    ['2026-12-01T09:30:00+01:00', '2026-12-01T08:30:00.000Z'],
  ])('reads %s', (text, since) => {
    expect(readSince(text, NOW)).toEqual({ ok: true, since: new Date(since) });
  });

  it.each([
    ['yesterday', /is not a time/],
    ['2026-13-45', /is not a date/],
    ['2027-01-01', /in the future/],
    ['400d', /more than 365 days back/],
  ])('refuses %s', (text, message) => {
    const reading = readSince(text, NOW);
    expect(reading.ok).toBe(false);
    expect(reading.ok ? '' : reading.message).toMatch(message);
  });
});

describe("the feed's reads", () => {
  it("are all reads the reports declare, so the Graph client's allow-list lets them through and no permission is added", () => {
    for (const read of CHANGE_FEED_READS) expect(PRODUCT_READS, read.path).toContain(read);
  });
});
