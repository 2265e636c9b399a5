import { describe, expect, it } from 'vitest';
import { DEMO_CHANGES } from '../../src/core/changes/demo.js';
import { runCliInProcess } from '../support/cli-in-process.js';

/**
 * `dmhealth changes` on the demo tenant the command starts itself (no tenant is configured in the
 * test's environment), in the test's own process: the change feed as a table, JSON and CSV.
 */
describe('dmhealth changes', () => {
  it('prints the week as a table: each change newest first, by whom, each setting before and after by name', async () => {
    const { code, stdout, stderr } = await runCliInProcess(['changes', '--since', '7d']);
    expect(code).toBe(0);
    expect(stderr).toContain('Demo tenant: reading the simulated tenant');
    expect(stdout).toMatch(/^What changed in Contoso \(demo\)\nFrom \d{4}-\d{2}-\d{2} \d{2}:\d{2} UTC to \d{4}-\d{2}-\d{2} \d{2}:\d{2} UTC: 13 changes, newest first\./);
    expect(stdout).toMatch(
      / UTC by dana\.lopez@contoso-demo\.example\n {2}Changed: Settings catalog or endpoint security policy "Firewall - Datacenter"\n {4}Enable Domain Network Firewall: True → False\n/,
    );
    expect(stdout).toContain('  Assignment removed: App "Contoso CAD"\n    Assignment: group: All Staff → (none)\n');
    expect(stdout).toContain('  Deleted: Device configuration profile "Windows - Legacy Wi-Fi (retired)"\n');
    // In the order the demo planted them, newest first.
    const order = DEMO_CHANGES.map((change) => stdout.indexOf(`"${change.object}"`));
    expect(order.every((at) => at > 0)).toBe(true);
    expect([...order].sort((a, b) => a - b)).toEqual(order);
    expect(stdout.trimEnd().endsWith('1 other event of the audit log in this time (device actions, roles, enrollment) is not device configuration and not listed.')).toBe(true);

    // Fitted to a width, links kept whole.
    const narrow = await runCliInProcess(['changes', '--since', '7d', '--width', '60']);
    for (const line of narrow.stdout.split('\n')) if (!line.trim().startsWith('https://')) expect(line.length, line).toBeLessThanOrEqual(60);
    expect(narrow.stdout).toContain('    https://intune.microsoft.com/#view/Microsoft_Intune_Apps/SettingsMenu/~/2/appId/');
  });

  it('keeps the changes of one person, as JSON, and of one object, as CSV', async () => {
    const json = await runCliInProcess(['changes', '--since', '7d', '--by', 'MEGAN', '--format', 'json']);
    expect(json.code).toBe(0);
    const result = JSON.parse(json.stdout) as { state: string; feed: { changes: Array<{ by: string; object: { name: string } }> } };
    expect(result.state).toBe('loaded');
    expect(result.feed.changes.map((change) => change.object.name)).toEqual(
      DEMO_CHANGES.filter((change) => 'user' in change.by && change.by.user.startsWith('megan')).map((change) => change.object),
    );

    const csv = await runCliInProcess(['changes', '--since', '7d', '--object', '7-zip', '--format', 'csv']);
    expect(csv.code).toBe(0);
    const lines = csv.stdout.trimEnd().split('\r\n');
    expect(lines[0]).toBe('When (UTC),Changed by,Action,Object type,Object,Setting or property,Before,After,Note,Object id,Logged property,Logged before,Logged after,Link');
    expect(lines.slice(1).map((line) => line.split(',').slice(2, 8).join(','))).toEqual([
      'Assignments changed,App,7-Zip,Assignment 1: intent,,Required',
      'Assignments changed,App,7-Zip,Assignment 1: group,,All Staff',
      'Assignments changed,App,7-Zip,Assignment 1: filter,,Corporate Windows',
      'Assignments changed,App,7-Zip,Assignment 1: filter mode,,Include',
    ]);
  });

  it.each([
    [['changes', '--since', 'last week'], 'dmhealth changes: --since "last week" is not a time'],
    [['changes', '--since', '500d'], 'more than 365 days back'],
    [['changes', '--format', 'xml'], '--format must be table, json or csv, got "xml"'],
    [['changes', '--width', '10'], '--width must be a whole number from 40 to 1000'],
    [['changes', '--colour'], "Unknown option '--colour'"],
  ])('refuses %j before it reads any tenant (exit 2)', async (args, message) => {
    const { code, stdout, stderr } = await runCliInProcess(args);
    expect(code).toBe(2);
    expect(stdout).toBe('');
    expect(stderr).toContain(message);
    expect(stderr).not.toContain('Demo tenant');
  });
});
