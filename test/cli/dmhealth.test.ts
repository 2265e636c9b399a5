import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { promisify } from 'node:util';
import { beforeAll, describe, expect, it } from 'vitest';
import type { ReportResult } from '../../src/core/reports/report-model.js';
import { REPORT_IDS, reportDefinition } from '../../src/core/reports/registry.js';
import { runCliInProcess } from '../support/cli-in-process.js';
import { blankTenant, managedDevice, useDemoTenantForProcesses, useTestSimulator } from '../support/simulated-tenant.js';
import { simulatorEnvironment } from '../../src/sim/simulator.js';

const run = promisify(execFile);
const CLI = 'dist/cli/dmhealth.js';

/** The environment minus anything that would point the CLI at a tenant. */
function cleanEnv(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const env = { ...process.env };
  for (const name of Object.keys(env)) if (/^(M365_|GRAPH_BASE_URL|NODE_EXTRA_CA_CERTS)/.test(name)) delete env[name];
  return { ...env, ...extra };
}

async function dmhealth(args: string[], env: NodeJS.ProcessEnv = cleanEnv()): Promise<{ code: number; stdout: string; stderr: string }> {
  try {
    const { stdout, stderr } = await run(process.execPath, [CLI, ...args], { env, timeout: 25_000, maxBuffer: 32 * 1024 * 1024 });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const failed = error as { code?: number; stdout?: string; stderr?: string };
    return { code: failed.code ?? -1, stdout: failed.stdout ?? '', stderr: failed.stderr ?? '' };
  }
}

// A second tenant reached only through the environment, as a real one would be.
const harness = useTestSimulator({
  tenant: blankTenant({
    collections: { ...blankTenant().collections, managedDevices: [managedDevice(1), { ...managedDevice(2), operatingSystem: 'iOS' }] },
    grantedRoles: ['DeviceManagementManagedDevices.Read.All', 'BitlockerKey.ReadBasic.All'],
  }),
});
const tenantEnv = () => cleanEnv(simulatorEnvironment(harness.sim));

// The demo tenant, read as a configured tenant by the tests of what a report prints; the tests of the
// demo itself (its banner, its data as `npx dmhealth` shows it) start it as the command line does.
const demoEnvironment = useDemoTenantForProcesses();
const demoEnv = (extra: Record<string, string> = {}) => cleanEnv({ ...demoEnvironment(), ...extra });

describe('dmhealth', () => {
  beforeAll(() => {
    if (!existsSync(CLI)) throw new Error(`${CLI} is missing: npm test builds it first (npm run build)`);
  });

  it('prints the escrow-gaps report of the demo tenant as the JSON contract, devices missing either first', async () => {
    const { code, stdout, stderr } = await dmhealth(['report', 'escrow-gaps', '--format', 'json']);
    expect(code, stderr).toBe(0);
    const report = JSON.parse(stdout) as ReportResult;
    expect(Object.keys(report).sort()).toEqual([
      'columns',
      'error',
      'findingKinds',
      'findings',
      'generatedAt',
      'notChecked',
      'notice',
      'report',
      'rows',
      'state',
      'thresholds',
      'title',
      'unchecked',
      'uncheckedSubjects',
    ]);
    expect(report).toMatchObject({ report: 'escrow-gaps', title: 'Windows LAPS & BitLocker Escrow Gaps', state: 'loaded', error: null });
    expect(Number.isNaN(Date.parse(report.generatedAt))).toBe(false);
    expect(report.columns.filter((column) => ['recoveryKey', 'lapsPassword'].includes(column.key))).toEqual([
      { key: 'recoveryKey', label: 'Recovery key', available: true, format: 'date', tones: { byValue: { missing: 'danger', 'not applicable': 'neutral' }, otherwise: 'ok' } },
      {
        key: 'lapsPassword',
        label: 'LAPS password',
        available: true,
        format: 'date',
        tones: { byValue: { missing: 'warning', 'not supported': 'neutral', 'may be backed up to AD': 'neutral' }, otherwise: 'ok' },
      },
    ]);
    const gaps = report.rows.map((row) => Number(row.recoveryKey === 'missing') + Number(row.lapsPassword === 'missing'));
    expect(gaps).toEqual([...gaps].sort((a, b) => b - a));
    expect(gaps[0]).toBe(2);
    expect(gaps.at(-1)).toBe(0);
    for (const finding of report.findings) {
      expect(Object.keys(finding).sort()).toEqual(['detail', 'fingerprint', 'kind', 'subjectId', 'subjectName']);
      expect(['missing-recovery-key', 'missing-laps-password']).toContain(finding.kind);
    }
    expect(stderr).toContain('Contoso (demo)');
  });

  it("prints security-posture's findings with who last changed their object and when, in JSON and in the table", async () => {
    const json = await dmhealth(['report', 'security-posture', '--format', 'json']);
    expect(json.code, json.stderr).toBe(0);
    const report = JSON.parse(json.stdout) as ReportResult;
    const branch = report.findings.find((finding) => finding.subjectName === 'Firewall - Branch offices (policy set)')!;
    expect(branch.lastChange).toMatchObject({ by: 'dana.lopez@contoso-demo.example', activity: 'Patch DeviceManagementConfigurationPolicy' });
    expect(Number.isNaN(Date.parse(branch.lastChange!.at))).toBe(false);
    expect(report.auditLog?.state).toBe('read');
    const table = await dmhealth(['report', 'security-posture', '--width', '200']);
    expect(table.code, table.stderr).toBe(0);
    const lines = table.stdout.split('\n');
    const at = lines.findIndex((line) => line.trim().startsWith('Firewall - Branch offices (policy set):'));
    expect(lines[at + 1]!.trim()).toMatch(
      /^Last changed by dana\.lopez@contoso-demo\.example on \d{4}-\d{2}-\d{2} \d{2}:\d{2} UTC \(Patch DeviceManagementConfigurationPolicy\)\.$/,
    );
  });

  it('reads a tenant named by the environment, trusted through NODE_EXTRA_CA_CERTS, and shows n/a for an ungranted source', async () => {
    const { code, stdout, stderr } = await dmhealth(['report', 'escrow-gaps', '--format', 'json'], tenantEnv());
    expect(code, stderr).toBe(0);
    const report = JSON.parse(stdout) as ReportResult;
    expect(report.rows.map((row) => row.device)).toEqual(['DESKTOP-00001']);
    expect(report.columns.find((column) => column.key === 'lapsPassword')?.available).toBe(false);
    expect(report.findings.map((finding) => finding.kind)).toEqual(['missing-recovery-key']);
    expect(harness.sim.graph.requests.length).toBeGreaterThan(0);
  });

  it('says which checks did not run and which permission to grant, before what it found, in the report and the overview', async () => {
    const report = await dmhealth(['report', 'escrow-gaps'], { ...tenantEnv(), COLUMNS: '80' });
    expect(report.code, report.stderr).toBe(0);
    const lines = report.stdout.split('\n');
    const notChecked = lines.findIndex((line) => line.startsWith('Not checked: 1 check, up to Medium.'));
    const found = lines.findIndex((line) => /^\d[\d,]* findings?, worst first:$/.test(line));
    expect(notChecked).toBeGreaterThan(0);
    expect(notChecked).toBeLessThan(found);
    expect(report.stdout).toContain('Devices without an escrowed LAPS password (Medium)');
    expect(lines.some((line) => line.includes('DeviceLocalCredential.ReadBasic.All'))).toBe(true);
    // Every line fits, but a Learn link, which stays whole on a line of its own so it can be clicked and copied.
    expect(lines.filter((line) => line.length > 80 && !/^\s*https:\/\/\S+$/.test(line))).toEqual([]);

    const overview = await dmhealth(['overview'], { ...tenantEnv(), COLUMNS: '100' });
    const block = overview.stdout.split('\n\n').find((text) => text.startsWith('Windows LAPS & BitLocker Escrow Gaps'))!;
    expect(block).toContain('Not checked: 1 check, up to Medium.');
    expect(block).toContain('DeviceLocalCredential.ReadBasic.All');
  });

  it('exits 3 with the upstream status when the report cannot load', async () => {
    const { code, stdout, stderr } = await dmhealth(['report', 'admin-approval'], tenantEnv());
    expect(code).toBe(3);
    expect(stdout).toContain('Load error (HTTP 403)');
    expect(stderr).not.toContain(harness.sim.clientSecret);
  });

  it('prints CSV with a header row', async () => {
    const { code, stdout } = await dmhealth(['report', 'escrow-gaps', '--format', 'csv'], tenantEnv());
    expect(code).toBe(0);
    expect(stdout.split('\r\n')[0]).toBe('Device,User,Last check-in,Recovery key,LAPS password,Note,Findings,Severity,Detail,Link');
    expect(stdout.split('\r\n')[1]).toMatch(/^DESKTOP-00001,.*,missing,n\/a,/);
  });

  it('prints a device name that holds line breaks or bidirectional overrides on its own line, as written', async () => {
    const collections = harness.sim.tenant.collections;
    const before = collections.managedDevices;
    collections.managedDevices = [
      { ...managedDevice(7), deviceName: 'PC-7\n  missing-recovery-key  FORGED-PC: No key.' },
      { ...managedDevice(8), deviceName: 'PC-8\rOVERWRITTEN' },
      { ...managedDevice(9), deviceName: 'invoice\u202Efdp.exe' },
    ];
    try {
      const table = await dmhealth(['report', 'escrow-gaps'], tenantEnv());
      expect(table.code, table.stderr).toBe(0);
      expect(table.stdout).not.toMatch(/[\r\u202A-\u202E\u2066-\u2069]/);
      const findingLines = table.stdout
        .split('\n')
        .filter((line) => line.startsWith('    ') && line.endsWith(': No BitLocker recovery key is escrowed in Entra ID for this device.'));
      expect(findingLines).toHaveLength(3);
      expect(findingLines[0]).toBe('    PC-7   missing-recovery-key  FORGED-PC: No key.: No BitLocker recovery key is escrowed in Entra ID for this device.');
      const csv = await dmhealth(['report', 'escrow-gaps', '--format', 'csv'], tenantEnv());
      expect(csv.stdout.split('\r\n').filter(Boolean)).toHaveLength(1 + 3);
      expect(csv.stdout).toContain('invoicefdp.exe');
    } finally {
      collections.managedDevices = before;
    }
  });

  it.each(REPORT_IDS.flatMap((id) => [[id, 80] as const, [id, 120] as const]))('fits %s into %i columns, what it found before the table', async (id, width) => {
    const { code, stdout, stderr } = await dmhealth(['report', id], demoEnv({ COLUMNS: String(width) }));
    expect(code, stderr).toBe(0);
    const lines = stdout.split('\n');
    // A Learn link is never cut (it stands alone on its line, whole); every other line fits.
    expect(lines.filter((line) => line.length > width && !/^ +https:\/\/\S+$/.test(line))).toEqual([]);
    // Report 8 read from a tenant the command line keeps no approved baseline for is empty, and says so.
    const summary = lines.findIndex((line) => /^(\d[\d,]* findings?, worst first:|No findings\.|No approved baseline is kept here: .*)$/.test(line));
    const tableHeader = lines.findIndex((line, index) => index > 0 && /^-+( +-+)*$/.test(lines[index + 1] ?? ''));
    expect(summary).toBeGreaterThan(0);
    if (tableHeader >= 0) expect(summary).toBeLessThan(tableHeader);
  });

  it('counts findings worst first with their severity, and says which columns it left out', async () => {
    const { stdout } = await dmhealth(['report', 'escrow-gaps'], demoEnv({ COLUMNS: '80' }));
    const lines = stdout.split('\n');
    const start = lines.indexOf(lines.find((line) => / findings, worst first:$/.test(line))!);
    expect(lines[start + 1]).toMatch(/^ {2}High +\d+ {2}Devices without an escrowed BitLocker key$/);
    expect(lines[start + 2]).toMatch(/^ {2}Medium +\d+ {2}Devices without an escrowed LAPS password$/);
    expect(stdout).toMatch(/Left out to fit 80 columns: [^\n]+\. --format csv has every column\./);
    expect(lines.find((line) => line.startsWith('Device'))).toMatch(/Recovery key/);
  });

  it.each([['4'], ['escrow', 'gaps'], ['LAPS', '&', 'BitLocker'], ['Escrow-Gaps']])('takes a report by number or name, as the bot does: %j', async (...name) => {
    const { code, stdout, stderr } = await dmhealth(['report', ...name, '--format', 'json'], demoEnv());
    expect(code, stderr).toBe(0);
    expect((JSON.parse(stdout) as ReportResult).report).toBe('escrow-gaps');
  });

  it.each(['reports', 'report', 'overview', 'sim'])('%s --help prints its usage and exits 0', async (command) => {
    const { code, stdout } = await dmhealth([command, '--help']);
    expect(code).toBe(0);
    expect(stdout).toMatch(new RegExp(`^Usage: dmhealth ${command}\\b`));
  });

  it('overview prints every report, its state and counts, within the width', async () => {
    const { code, stdout, stderr } = await dmhealth(['overview'], cleanEnv({ COLUMNS: '80' }));
    expect(code, stderr).toBe(0);
    expect(stdout.split('\n').filter((line) => line.length > 80)).toEqual([]);
    for (const id of REPORT_IDS) expect(stdout).toContain(reportDefinition(id).title);
    expect(stdout).toMatch(/\d+ findings in \d+ rows, worst (High|Medium|Low):/);
  });

  it("prints report 7's predicted conflicts beside what devices reported, one of each kind on the demo, in the table, the JSON and the overview", async () => {
    const line =
      '1 of 2 predicted conflicts between configuration profiles confirmed by devices; 1 reported that was not predicted (as read, only "Front desk - camera blocked" sets Camera; the other leaves it Not configured).';
    const table = await dmhealth(['report', 'setting-conflicts']);
    expect(table.code, table.stderr).toBe(0);
    expect(table.stdout).toContain(line);
    const json = await dmhealth(['report', '7', '--format', 'json']);
    expect((JSON.parse(json.stdout) as ReportResult).headline).toContain(line);
    const overview = await dmhealth(['overview']);
    const block = overview.stdout.split('\n\n').find((text) => text.startsWith(reportDefinition('setting-conflicts').title))!;
    expect(block.replace(/\s+/g, ' ')).toContain(line);
  });

  it("lists the registry's reports, in its order", async () => {
    const { code, stdout } = await dmhealth(['reports', '--format', 'json']);
    expect(code).toBe(0);
    const reports = JSON.parse(stdout) as Array<{ id: string; beta: boolean; permissions: string[] }>;
    expect(reports.map((report) => report.id)).toEqual(REPORT_IDS);
    expect(reports.filter((report) => report.beta).map((report) => report.id)).toEqual(['admin-approval']);
    expect(reports.find((report) => report.id === 'escrow-gaps')?.permissions).not.toContain('BitlockerKey.Read.All');
  });

  it('lists the reports with their numbers, permissions and prerequisites, as its help says', async () => {
    const { code, stdout } = await dmhealth(['reports']);
    expect(code).toBe(0);
    expect(stdout).toMatch(/^ 1 connector-health +Connector & Integration Health\n +permissions: .+\n +prerequisite: /);
    expect(stdout).toMatch(/\n 4 escrow-gaps +Windows LAPS & BitLocker Escrow Gaps\n/);
    expect(stdout.split('\n').filter((line) => /^ *prerequisite: /.test(line)).length).toBeGreaterThanOrEqual(7);
  });

  it('suggests nothing for a word near no command', async () => {
    const { stderr } = await dmhealth(['frobnicate']);
    expect(stderr).not.toContain('Did you mean');
  });

  it.each([
    [['report'], 'name one report'],
    [['report', 'no-such-report'], 'unknown report'],
    [['report', 'escrow-gaps', '--format', 'xml'], '--format must be'],
    [['report', 'escrow-gaps', '--colour'], 'Unknown option'],
    [['frobnicate'], 'unknown command'],
    [['reprot'], 'unknown command "reprot". Did you mean "dmhealth report"?'],
    [['overveiw'], 'Did you mean "dmhealth overview"?'],
    [['report', 'escrow-gap'], 'unknown report "escrow-gap". Did you mean "escrow-gaps"?'],
    [['report', 'escrow-gaps', '--width', '39'], '--width must be a whole number from 40 to 1000, got "39"'],
    [['report', 'escrow-gaps', '--width', '1001'], '--width must be a whole number from 40 to 1000, got "1001"'],
    [['report', 'escrow-gaps', '--width', '80.5'], '--width must be a whole number from 40 to 1000, got "80.5"'],
    [['overview', '--width', '12'], '--width a whole number from 40 to 1000'],
    [['report', 'escrow-gaps', '--findings-only', '--format', 'csv'], '--findings-only is for --format table or json'],
  ])('exits 2 on a usage error: %j', async (args, message) => {
    // Read in this process: a usage error is found before the command reads any tenant, and the
    // test below shows the status reaching the shell from a process of its own.
    const { code, stderr } = await runCliInProcess(args);
    expect(code).toBe(2);
    expect(stderr).toContain(message);
  });

  it('hands a usage error to the shell as exit status 2, its message on standard error alone', async () => {
    const { code, stdout, stderr } = await dmhealth(['report', 'escrow-gaps', '--width', '39']);
    expect(code).toBe(2);
    expect(stdout).toBe('');
    expect(stderr).toContain('--width must be a whole number from 40 to 1000, got "39"');
  });

  it('exits 2 in one line when the certificate file cannot be read', async () => {
    const env = tenantEnv();
    delete env.M365_CLIENT_SECRET;
    const { code, stderr } = await dmhealth(['report', 'escrow-gaps'], { ...env, M365_CLIENT_CERTIFICATE: '/nonexistent/app.pem' });
    expect(code).toBe(2);
    expect(stderr.trim().split('\n')).toHaveLength(1);
    expect(stderr).toContain('cannot connect to the tenant');
  });

  it('exits 2 and names what is missing when the tenant configuration is partial', async () => {
    const { code, stderr } = await dmhealth(['report', 'escrow-gaps'], cleanEnv({ M365_TENANT_ID: harness.sim.tenantId }));
    expect(code).toBe(2);
    expect(stderr).toContain('M365_CLIENT_ID');
  });

  it('counts one finding and one row in the singular, and one finding kind by its singular label', async () => {
    const report = await dmhealth(['report', 'escrow-gaps', '--width', '80'], tenantEnv());
    expect(report.code, report.stderr).toBe(0);
    expect(report.stdout).toContain('1 finding, worst first:');
    expect(report.stdout).toMatch(/^ {2}High {4}1 {2}Device without an escrowed BitLocker key$/m);
    const overview = await dmhealth(['overview', '--width', '80'], tenantEnv());
    expect(overview.stdout).toContain('1 finding in 1 row, worst High:');
    expect(`${report.stdout}${overview.stdout}`).not.toMatch(/\b1 (?:findings|rows|devices|policies|areas)\b/i);
  });

  it('prints only the findings and how to fix them with --findings-only, in the table and in JSON', async () => {
    const table = await dmhealth(['report', 'escrow-gaps', '--findings-only', '--width', '80'], tenantEnv());
    expect(table.code, table.stderr).toBe(0);
    expect(table.stdout).not.toMatch(/^Device {2,}/m);
    expect(table.stdout).not.toContain('Left out to fit');
    expect(table.stdout).toContain('Findings, worst first:');
    expect(table.stdout).toContain('  DESKTOP-00001: ');
    expect(table.stdout).toContain('How to fix them, worst first:');
    const json = await dmhealth(['report', 'escrow-gaps', '--findings-only', '--format', 'json'], tenantEnv());
    expect(json.code, json.stderr).toBe(0);
    const findings = JSON.parse(json.stdout) as Partial<ReportResult>;
    expect(Object.keys(findings).sort()).toEqual(['error', 'findingKinds', 'findings', 'generatedAt', 'notice', 'report', 'state', 'title']);
    expect(findings.findings?.map((finding) => finding.kind)).toEqual(['missing-recovery-key']);
  });

  it('never breaks a Learn link across lines, even at the narrowest width', async () => {
    const { code, stdout, stderr } = await dmhealth(['report', 'security-posture', '--width', '40']);
    expect(code, stderr).toBe(0);
    const links = stdout.split('\n').filter((line) => line.includes('https://'));
    expect(links.length).toBeGreaterThan(0);
    // Each link is alone on its line, whole: a terminal can open it and a reader can copy it.
    for (const line of links) expect(line).toMatch(/^ +https:\/\/learn\.microsoft\.com\/\S+$/);
    // Every other line keeps to the width.
    expect(stdout.split('\n').filter((line) => line.length > 40 && !line.includes('https://'))).toEqual([]);
  });

  it('tells the operator at the command line which setting turns on what a notice asks for', async () => {
    const { code, stdout, stderr } = await dmhealth(['report', 'assignment-hygiene', '--findings-only']);
    expect(code, stderr).toBe(0);
    expect(stdout).toContain("Whoever runs this app can have it read Microsoft Graph's beta version, as the Intune admin center does");
    expect(stdout).toContain('set GRAPH_BETA_COVERAGE=true where the app runs');
  });
});
