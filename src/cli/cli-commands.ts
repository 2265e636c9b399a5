import { parseArgs } from 'node:util';
import { readConfig } from '../app/config.js';
import { REPORTS } from '../core/reports/registry.js';
import type { ReportRegistry } from '../core/reports/registry.js';
import type { LoadProgress, ReportResult } from '../core/reports/report-model.js';
import { reportToCsv } from '../core/reports/report-csv.js';
import { createServices } from '../app/create-services.js';
import type { AppServices } from '../app/create-services.js';
import { openGraphConnection } from '../app/graph-connection.js';
import type { GraphConnection } from '../app/graph-connection.js';
import { EXIT_LOAD_ERROR, EXIT_NOT_FOUND, EXIT_USAGE } from './exit-status.js';
import { appliesToText } from './applies-text.js';
import { delayedProgressLine } from './applies-progress.js';
import { didYouMean } from './did-you-mean.js';
import { inertLogLine } from '../app/log-line.js';
// The simulator is loaded only by a command that runs it (`sim`, or a read of the demo tenant): it is
// most of the command line's start-up, which `help`, `reports` and a mistyped command do not need.
import type { startDemoTenant } from './simulated-tenant.js';
import { printError } from './print-error.js';
import { overviewToText, reportToText } from './report-text.js';
import { MIN_WIDTH, outputWidth, wrap } from './text-layout.js';
import { upstreamReadsOf } from '../core/upstream-reads.js';
import { readSince } from '../core/changes/since.js';
import { changesToCsv } from '../core/changes/change-csv.js';
import { changesToText } from './changes-text.js';

type CommandName = 'reports' | 'report' | 'overview' | 'applies' | 'changes' | 'sim' | 'help';

/** Each command's own help, which `dmhealth <command> --help` prints and `dmhealth help` lists: its synopsis and what it does, wrapped to the width when printed. */
function commandHelp(registry: ReportRegistry): Record<CommandName, readonly [synopsis: string, description: string]> {
  return {
    reports: [`reports [--format table|json]`, `List the reports: id, title, required application permissions, prerequisites.`],
    report: [
      `report <report> [--format table|json|csv] [--width N] [--findings-only]`,
      `Load one report from the configured tenant (M365_TENANT_ID, M365_CLIENT_ID and M365_CLIENT_SECRET or M365_CLIENT_CERTIFICATE; GRAPH_BASE_URL and M365_AUTHORITY_HOST for another endpoint), or from the demo tenant when none is configured. <report> is an id, a number or a name, as the bot takes them: ${registry.ids.map((id, index) => `${index + 1} ${id}`).join(', ')}. The table fits the terminal (or --width, or COLUMNS): findings counted worst first, then the table without the columns that do not fit, then every finding and how to fix it. --findings-only leaves the table out: the findings and how to fix them (with --format json, the report's findings and finding kinds alone).`,
    ],
    overview: [`overview [--format table|json] [--width N]`, `Load every report and print each one's state and its findings counted by kind.`],
    applies: [
      `applies <device|user|group> [--format table|json]`,
      `What applies to a managed device (name or id), a user (UPN or id) or a group (name or id), and why: each profile, policy, app and script that targets it, grouped by type, with the path that reaches it, what takes it out, its filter, and a link to Intune. Exit status 4 when nothing, or more than one thing, has that name.`,
    ],
    changes: [
      `changes [--since 24h|7d|<date>] [--object <name>] [--by <person>] [--format table|json|csv] [--width N]`,
      `What changed in the tenant's device configuration, newest first, from Intune's audit log: each settings catalog and endpoint security policy, profile, compliance policy, app assignment, script, remediation and filter changed, created, deleted or assigned, by whom and when, with each setting before and after by its name. --since is how far back (24h by default; up to a year, as long as Intune keeps the log); --object and --by keep the changes of an object or a person whose name holds those words. Exit status 3 when the audit log cannot be read.`,
    ],
    sim: [
      `sim [--tenant demo|large] [--devices N] [--policies N] [--port N] [--latency MS] [--no-throttling] [--managed-identity] [--env]`,
      `Run the simulated tenant (HTTPS Graph and Entra look-alike on loopback) and print what a client needs to reach it: Graph URL, authority, tenant id, client id and secret, and the CA file to trust through NODE_EXTRA_CA_CERTS. With --managed-identity it also serves an identity endpoint as App Service does, and prints the identity's variables instead of a secret. The variables are printed as export lines a shell takes as they are (other lines are # comments); --env prints NAME=value lines for a .env file.`,
    ],
    help: [`help`, `Show this text. Every command also takes --help.`],
  };
}

/** One command's help within `width`: the synopsis, then what it does, indented under it (options kept whole at spaces). */
function helpLines(help: readonly [string, string], width: number, indent: string): string[] {
  const [synopsis, description] = help;
  return [...wrap(synopsis, width, `${indent}      `, indent), ...wrap(description, width, `${indent}    `)];
}

/** The width help is laid out for: as any output, and 80 where nothing says (help is read, not parsed). */
function helpWidth(): number {
  return outputWidth(undefined, process.stdout, process.env) ?? 80;
}

function usage(registry: ReportRegistry, width: number): string {
  return [
    'Usage: dmhealth <command>',
    '',
    'Commands:',
    ...Object.values(commandHelp(registry)).flatMap((help) => helpLines(help, width, '  ')),
    '',
    ...wrap("Exit status: 0 loaded (or the report's empty notice), 3 load error, 2 usage or configuration error, 4 (applies) nothing or more than one thing has that name.", width),
  ].join('\n');
}

/** `dmhealth <command> --help`: that command's help on stdout, exit 0. */
function wantsHelp(args: readonly string[]): boolean {
  return args.includes('--help') || args.includes('-h');
}

/**
 * What the demo tenant holds besides the registry's records: the simulator resources a report that
 * exists only in a test reads (its folder's one resource file; CONTRIBUTING.md, "Adding a Graph read").
 */
export type DemoTenantExtras = Parameters<typeof startDemoTenant>[1];

/** Runs one `dmhealth` command over the registry's reports; resolves to the exit status. */
export async function runCli(argv: readonly string[], registry: ReportRegistry = REPORTS, demo: DemoTenantExtras = {}): Promise<number> {
  const [command, ...rest] = argv;
  if (command === undefined || command === 'help' || command === '--help' || command === '-h') {
    console.log(usage(registry, helpWidth()));
    return command === undefined ? EXIT_USAGE : 0;
  }
  const help = commandHelp(registry);
  if (Object.hasOwn(help, command) && command !== 'help' && wantsHelp(rest)) {
    const [synopsis, description] = help[command as CommandName];
    console.log(helpLines([`Usage: dmhealth ${synopsis}`, description], helpWidth(), '').join('\n'));
    return 0;
  }
  if (command === 'sim') return (await import('./simulated-tenant.js')).runSimulator(rest);
  if (command === 'reports') return listReports(rest, registry);
  if (command === 'report') return runReport(rest, registry, demo);
  if (command === 'overview') return runOverview(rest, registry, demo);
  if (command === 'applies') return runApplies(rest, registry, demo);
  if (command === 'changes') return runChanges(rest, registry, demo);
  const near = didYouMean(command, Object.keys(help));
  printError(`dmhealth: unknown command "${command}"${near ? `. Did you mean "dmhealth ${near}"?` : ''}\n\n${usage(registry, helpWidth())}`);
  return EXIT_USAGE;
}

function listReports(args: string[], registry: ReportRegistry): number {
  let format: string;
  try {
    format = parseArgs({ args, options: { format: { type: 'string', default: 'table' } }, strict: true }).values.format ?? 'table';
  } catch (error) {
    printError(`dmhealth reports: ${(error as Error).message}`);
    return EXIT_USAGE;
  }
  if (format !== 'table' && format !== 'json') {
    printError(`dmhealth reports: --format must be table or json, got "${format}"`);
    return EXIT_USAGE;
  }
  const reports = registry.catalogue();
  if (format === 'json') {
    console.log(JSON.stringify(reports, null, 2));
    return 0;
  }
  const width = outputWidth(undefined, process.stdout, process.env);
  const under = ' '.repeat(23);
  // Its number first, as `dmhealth report 4` and the bot's `show 4` take it, then its prerequisites, as the help promises.
  reports.forEach((report, index) => {
    console.log(wrap(`${report.title}${report.beta ? ' (beta)' : ''}`, width, under, `${`${index + 1}`.padStart(2)} ${report.id.padEnd(19)} `).join('\n'));
    console.log(wrap(`permissions: ${report.permissions.join(', ')}`, width, `${under}  `, under).join('\n'));
    for (const prerequisite of report.prerequisites) console.log(wrap(`prerequisite: ${prerequisite}`, width, `${under}  `, under).join('\n'));
  });
  return 0;
}

async function runReport(args: string[], registry: ReportRegistry, demo: DemoTenantExtras): Promise<number> {
  let values: { format?: string; width?: string; 'findings-only'?: boolean };
  let positionals: string[];
  try {
    ({ values, positionals } = parseArgs({
      args,
      options: { format: { type: 'string', default: 'table' }, width: { type: 'string' }, 'findings-only': { type: 'boolean' } },
      allowPositionals: true,
      strict: true,
    }));
  } catch (error) {
    printError(`dmhealth report: ${(error as Error).message}`);
    return EXIT_USAGE;
  }
  if (positionals.length === 0) {
    printError(`dmhealth report: name one report: ${registry.ids.join(', ')}`);
    return EXIT_USAGE;
  }
  // "dmhealth report escrow gaps" names one report in two words, as the bot would take it.
  const name = positionals.join(' ');
  const id = registry.find(name);
  if (!id) {
    const near = didYouMean(name, registry.ids);
    printError(
      `dmhealth report: unknown report "${name}".${near ? ` Did you mean "${near}"?` : ''} Reports: ${registry.ids.map((known, index) => `${index + 1} ${known}`).join(', ')}`,
    );
    return EXIT_USAGE;
  }
  const width = readWidth(values.width);
  if (width === 'invalid') {
    printError(`dmhealth report: --width must be a whole number from ${MIN_WIDTH} to 1000, got "${values.width}"`);
    return EXIT_USAGE;
  }
  const format = values.format ?? 'table';
  if (format !== 'table' && format !== 'json' && format !== 'csv') {
    printError(`dmhealth report: --format must be table, json or csv, got "${format}"`);
    return EXIT_USAGE;
  }
  const findingsOnly = values['findings-only'] === true;
  if (findingsOnly && format === 'csv') {
    printError('dmhealth report: --findings-only is for --format table or json; --format csv is the table itself');
    return EXIT_USAGE;
  }
  // stdout carries the report and nothing else; what happens on the way goes to stderr.
  return withServices('report', registry, demo, async (services) => {
    const progress = process.stderr.isTTY ? showProgress : undefined;
    const report = await services.reports.get(id, progress ? { onProgress: progress } : {});
    if (progress) process.stderr.write('\r\u001b[K');
    if (format === 'json') process.stdout.write(`${JSON.stringify(findingsOnly ? onlyFindings(report) : report, null, 2)}\n`);
    else if (format === 'csv') process.stdout.write(report.state === 'load-error' ? '' : reportToCsv(report));
    else
      process.stdout.write(
        reportToText(report, registry.definition(id), { color: process.stdout.isTTY === true, width: outputWidth(width, process.stdout, process.env), findingsOnly }),
      );
    if (report.state === 'load-error') {
      // Graph's message is upstream text: written inert, as every log line (log-line.ts).
      if (format !== 'table') printError(inertLogLine(`dmhealth report: ${report.title} could not load: ${report.error?.message}`));
      return EXIT_LOAD_ERROR;
    }
    return 0;
  });
}

/** `--findings-only --format json`: what a report found and how to read it, without its table. */
function onlyFindings(report: ReportResult): Pick<ReportResult, 'report' | 'title' | 'state' | 'generatedAt' | 'notice' | 'error' | 'findings' | 'findingKinds'> {
  const { report: id, title, state, generatedAt, notice, error, findings, findingKinds } = report;
  return { report: id, title, state, generatedAt, notice, error, findings, findingKinds };
}

/** Why a report could not be built, on stderr: the command line has no server log for its card to point to. */
function printBuildFailure(_report: string, error: unknown): void {
  console.error(`The report could not be built: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
}

/**
 * Runs `work` over the application's services on the configured tenant (or the demo tenant, said
 * on stderr), closing the connection after; a configuration that cannot be read or used is a usage
 * error in one line. The command line keeps no state: no history, triage or schedule.
 */
async function withServices(command: string, registry: ReportRegistry, demo: DemoTenantExtras, work: (services: AppServices) => Promise<number>): Promise<number> {
  const read = readConfig(process.env);
  if (!read.ok) {
    printError(`dmhealth ${command}: ${read.error.message}`);
    return EXIT_USAGE;
  }
  let connection: GraphConnection;
  try {
    connection = await openGraphConnection(read.config.connection, {
      reads: upstreamReadsOf(registry),
      betaCoverage: read.config.betaCoverage,
      startDemoTenant: async () => (await import('./simulated-tenant.js')).startDemoTenant(registry, demo),
    });
  } catch (error) {
    // An unreadable certificate file or the like: configuration, said in one line.
    printError(`dmhealth ${command}: cannot connect to the tenant: ${(error as Error).message}`);
    return EXIT_USAGE;
  }
  try {
    if (connection.demo)
      console.error(
        wrap(`Demo tenant: reading the simulated tenant "${connection.tenantLabel}" (no M365_TENANT_ID configured).`, outputWidth(undefined, process.stderr, process.env)).join(
          '\n',
        ),
      );
    const services = createServices({
      connection,
      registry,
      loadOptions: { thresholds: read.config.thresholds, onUnexpectedError: printBuildFailure },
      // Its loads are the command's whole work, shown as progress; there is no server log to count them in.
      log: () => undefined,
    });
    return await work(services);
  } finally {
    await connection.close();
  }
}

function readWidth(value: string | undefined): number | undefined | 'invalid' {
  if (value === undefined) return undefined;
  const width = Number(value);
  return Number.isInteger(width) && width >= MIN_WIDTH && width <= 1000 ? width : 'invalid';
}

/** `dmhealth applies <device|user|group>`: what applies to it, and why (docs/contract.md, "What applies"). */
async function runApplies(args: string[], registry: ReportRegistry, demo: DemoTenantExtras): Promise<number> {
  let values: { format?: string };
  let positionals: string[];
  try {
    ({ values, positionals } = parseArgs({ args, options: { format: { type: 'string', default: 'table' } }, allowPositionals: true, strict: true }));
  } catch (error) {
    printError(`dmhealth applies: ${(error as Error).message}`);
    return EXIT_USAGE;
  }
  const format = values.format ?? 'table';
  if (format !== 'table' && format !== 'json') {
    printError(`dmhealth applies: --format must be table or json, got "${format}"`);
    return EXIT_USAGE;
  }
  if (positionals.length === 0) {
    printError('dmhealth applies: name a device, a user (UPN) or a group');
    return EXIT_USAGE;
  }
  // A group's name may have spaces: "dmhealth applies Sales EMEA" asks about one group.
  const query = positionals.join(' ');
  return withServices('applies', registry, demo, async (services) => {
    if (!services.applies) throw new Error('the services were made without a Graph client');
    // What it is reading, on standard error, once a question takes more than a second (applies-progress.ts); never into a pipe.
    const progress = process.stderr.isTTY ? delayedProgressLine(query, (text) => process.stderr.write(text)) : null;
    const result = await services.applies.applies(query, progress ? { onProgress: progress.onProgress } : {}).finally(() => progress?.done());
    const status = result.kind === 'found' ? 0 : result.kind === 'failed' ? EXIT_LOAD_ERROR : EXIT_NOT_FOUND;
    if (format === 'json') {
      process.stdout.write(`${JSON.stringify(result, null, 2)}\n`);
      if (status !== 0)
        console.error(
          wrap(`dmhealth applies: ${'words' in result ? result.words : ''}`, outputWidth(undefined, process.stderr, process.env))
            .map(inertLogLine)
            .join('\n'),
        );
    } else if (status === 0) process.stdout.write(appliesToText(result, outputWidth(undefined, process.stdout, process.env)));
    // The query is the caller's own text, echoed: each line written inert (log-line.ts).
    else
      process.stderr.write(
        `${appliesToText(result, outputWidth(undefined, process.stderr, process.env))
          .trimEnd()
          .split('\n')
          .map(inertLogLine)
          .join('\n')}\n`,
      );
    return status;
  });
}

/** `dmhealth overview`: every report loaded side by side, each one's state and counts. */
async function runOverview(args: string[], registry: ReportRegistry, demo: DemoTenantExtras): Promise<number> {
  let values: { format?: string; width?: string };
  try {
    ({ values } = parseArgs({ args, options: { format: { type: 'string', default: 'table' }, width: { type: 'string' } }, strict: true }));
  } catch (error) {
    printError(`dmhealth overview: ${(error as Error).message}`);
    return EXIT_USAGE;
  }
  const format = values.format ?? 'table';
  const width = readWidth(values.width);
  if ((format !== 'table' && format !== 'json') || width === 'invalid') {
    printError(`dmhealth overview: --format must be table or json, and --width a whole number from ${MIN_WIDTH} to 1000`);
    return EXIT_USAGE;
  }
  return withServices('overview', registry, demo, async (services) => {
    const results = await Promise.all(registry.ids.map((id) => services.reports.get(id)));
    const summaries = await services.reports.summarizeAll(results, new Date());
    if (format === 'json') process.stdout.write(`${JSON.stringify(summaries, null, 2)}\n`);
    else
      process.stdout.write(
        overviewToText(summaries, { color: process.stdout.isTTY === true, width: outputWidth(width, process.stdout, process.env), tenantLabel: services.tenant.label }),
      );
    return results.some((result) => result.state === 'load-error') ? EXIT_LOAD_ERROR : 0;
  });
}

/** `dmhealth changes`: the change feed of a window (docs/contract.md, "The change feed"). */
async function runChanges(args: string[], registry: ReportRegistry, demo: DemoTenantExtras): Promise<number> {
  let values: { since?: string; object?: string; by?: string; format?: string; width?: string };
  try {
    ({ values } = parseArgs({
      args,
      options: {
        since: { type: 'string', default: '24h' },
        object: { type: 'string' },
        by: { type: 'string' },
        format: { type: 'string', default: 'table' },
        width: { type: 'string' },
      },
      strict: true,
    }));
  } catch (error) {
    printError(`dmhealth changes: ${(error as Error).message}`);
    return EXIT_USAGE;
  }
  const format = values.format ?? 'table';
  if (format !== 'table' && format !== 'json' && format !== 'csv') {
    printError(`dmhealth changes: --format must be table, json or csv, got "${format}"`);
    return EXIT_USAGE;
  }
  const width = readWidth(values.width);
  if (width === 'invalid') {
    printError(`dmhealth changes: --width must be a whole number from ${MIN_WIDTH} to 1000, got "${values.width}"`);
    return EXIT_USAGE;
  }
  const since = readSince(values.since ?? '24h', new Date());
  if (!since.ok) {
    printError(inertLogLine(`dmhealth changes: --since ${since.message}`));
    return EXIT_USAGE;
  }
  return withServices('changes', registry, demo, async (services) => {
    if (!services.changes) throw new Error('the services were made without a Graph client');
    const progress = process.stderr.isTTY ? (source: string, records: number) => process.stderr.write(`\r\u001b[KReading ${source}: ${records.toLocaleString('en')}…`) : undefined;
    const result = await services.changes.feed(
      { since: since.since, ...(values.object ? { object: values.object } : {}), ...(values.by ? { person: values.by } : {}) },
      progress ? { onProgress: progress } : {},
    );
    if (progress) process.stderr.write('\r\u001b[K');
    if (format === 'json') process.stdout.write(`${JSON.stringify(result, null, 2)}\n`);
    else if (format === 'csv') process.stdout.write(result.state === 'loaded' ? changesToCsv(result.feed.changes) : '');
    else
      process.stdout.write(
        changesToText(result, { width: outputWidth(width, process.stdout, process.env), color: process.stdout.isTTY === true, tenantLabel: services.tenant.label }),
      );
    if (result.state === 'load-error') {
      if (format !== 'table') printError(inertLogLine(`dmhealth changes: ${result.error.message}`));
      return EXIT_LOAD_ERROR;
    }
    return 0;
  });
}

function showProgress(progress: LoadProgress): void {
  process.stderr.write(`\r\u001b[KLoading ${progress.report}: ${progress.source} ${progress.records.toLocaleString('en')}…`);
}
