import { createRequire } from 'node:module';
import { beforeAll, describe, expect, it } from 'vitest';
import { undecidedSentence } from '../../src/bot/cards/applies-card.js';
import { digestNewFindings } from '../../src/core/ledger/new-findings.js';
import { REPORTS, loadReport } from '../../src/core/reports/registry.js';
import { escrowGapsReport } from '../../src/core/reports/escrow-gaps/definition.js';
import type { Finding, ReportResult } from '../../src/core/reports/report-model.js';
import { emptyLedger } from '../../src/store/state-store.js';
import { TEAMS_CARD_LIMIT_BYTES, cardBytes } from '../../src/bot/cards/adaptive-card.js';
import type { AdaptiveCardJson } from '../../src/bot/cards/adaptive-card.js';
import { LISTED_FINDINGS } from '../../src/bot/cards/finding-list.js';
import { helpCard } from '../../src/bot/cards/help-card.js';
import { BOT_COMMANDS } from '../../src/bot/commands/index.js';
import { newFindingsCard } from '../../src/bot/cards/new-findings-card.js';
import { reportCard } from '../../src/bot/cards/report-card.js';
import { overviewCard } from '../../src/bot/cards/overview-card.js';
import { scheduleSentence } from '../../src/bot/cards/schedule-sentence.js';
import { summarizeReport } from '../../src/core/reports/report-summary.js';
import { notCheckedSources } from '../../src/core/reports/not-checked.js';
import type { PostSchedule } from '../../src/core/schedule/post-schedule.js';
import { createTabLinks } from '../../src/bot/tab-links.js';
import { buildDemoTenant } from '../../src/sim/tenants/demo-tenant.js';
import { useTestSimulator } from '../support/simulated-tenant.js';
import { cardTexts } from '../support/card-texts.js';

const harness = useTestSimulator({ tenant: buildDemoTenant() });
/** The little of the adaptivecards package this file uses (its published types are its TypeScript sources). */
interface AdaptiveCardsModule {
  AdaptiveCard: {
    new (): {
      parse(payload: unknown, context?: unknown): void;
      validateProperties(): { validationEvents: Array<{ message: string }> };
      render(): { textContent: string | null } | undefined;
    };
    onProcessMarkdown: (text: string, result: { outputHtml?: unknown; didProcess: boolean }) => void;
  };
  SerializationContext: new () => { eventCount: number; getEventAt(index: number): { message: string } };
}
let AC: AdaptiveCardsModule;
const tabLinks = createTabLinks({ teamsAppId: '3f1c2b7a-5d4e-4c8b-9a6f-1e2d3c4b5a69', tabUrl: 'https://health.contoso.example/tab/' });
const options = { tenantLabel: 'Contoso (demo)', tabLinks };
let demoResults: ReportResult[];

beforeAll(async () => {
  // The renderer needs a DOM; the simulator needs Node's own crypto, which a jsdom test environment
  // replaces. So this file runs in Node and lends adaptivecards a jsdom window of its own.
  const { JSDOM } = createRequire(import.meta.url)('jsdom') as {
    JSDOM: new (html: string) => { window: Record<string, unknown> & { document: unknown; HTMLElement: { prototype: object } } };
  };
  const { window } = new JSDOM('<!doctype html><html><body></body></html>');
  const domTypes = Object.getOwnPropertyNames(window).filter((name) => /^(HTML\w*Element|Element|Node|Text|DocumentFragment)$/.test(name));
  Object.assign(globalThis, { window, document: window.document }, Object.fromEntries(domTypes.map((name) => [name, window[name]])));
  // jsdom has no innerText, which the renderer writes text through.
  Object.defineProperty(window.HTMLElement.prototype, 'innerText', {
    configurable: true,
    get(this: { textContent: string | null }) {
      return this.textContent;
    },
    set(this: { textContent: string | null }, value: string) {
      this.textContent = value;
    },
  });
  const adaptiveCardsPackage = 'adaptivecards';
  AC = (await import(adaptiveCardsPackage)) as AdaptiveCardsModule;
  AC.AdaptiveCard.onProcessMarkdown = (text, result) => {
    result.outputHtml = text;
    result.didProcess = true;
  };
  const graph = harness.client();
  demoResults = await Promise.all(REPORTS.definitions.map((report) => loadReport(report.id, graph)));
});

/** Parses a card as Teams' renderer would and returns every parse or validation problem. */
function cardProblems(card: AdaptiveCardJson): string[] {
  const context = new AC.SerializationContext();
  const parsed = new AC.AdaptiveCard();
  parsed.parse(card, context);
  const problems: string[] = [];
  for (let index = 0; index < context.eventCount; index++) problems.push(context.getEventAt(index).message);
  for (const event of parsed.validateProperties().validationEvents) problems.push(event.message);
  expect(parsed.render()).toBeTruthy();
  return problems;
}

function renderedText(card: AdaptiveCardJson): string {
  const parsed = new AC.AdaptiveCard();
  parsed.parse(card);
  return parsed.render()?.textContent ?? '';
}

function syntheticResult(findingCount: number): ReportResult {
  const findings: Finding[] = Array.from({ length: findingCount }, (_, index) => ({
    kind: index % 3 === 0 ? 'missing-laps-password' : 'missing-recovery-key',
    subjectId: `device-${index}`,
    subjectName: `DESKTOP-${String(index).padStart(6, '0')} ${'x'.repeat(200)}`,
    detail: `No escrowed key ${'y'.repeat(500)}`,
    fingerprint: index.toString(16).padStart(32, '0'),
  }));
  return {
    report: 'escrow-gaps',
    title: 'Windows LAPS & BitLocker Escrow Gaps',
    state: 'loaded',
    error: null,
    notice: null,
    columns: [],
    rows: findings.map((finding) => ({ id: finding.subjectId, link: `https://intune.microsoft.com/#view/x/${finding.subjectId}` })),
    findings,
    findingKinds: escrowGapsReport.findingKinds,
    unchecked: [],
    uncheckedSubjects: [],
    notChecked: [],
    generatedAt: '2026-11-23T09:00:00.000Z',
  };
}

describe("cards tell who changed a finding's object, and when", () => {
  it('the security posture card and the new-findings card name the last change, and still validate', () => {
    const posture = demoResults.find((report) => report.report === 'security-posture')!;
    const story = posture.findings.find((finding) => finding.subjectName === 'Firewall - Branch offices (policy set)')!.lastChange!;
    expect(story.by).toBe('dana.lopez@contoso-demo.example');
    const when = `${story.at.slice(0, 16).replace('T', ' ')} UTC`;
    const reportText = reportCard(posture, { beta: false }, options);
    expect(cardProblems(reportText)).toEqual([]);
    expect(renderedText(reportText)).toContain(`Changed by dana.lopez@contoso-demo.example on ${when}`);
    // A change made by an app is named by the app.
    expect(renderedText(reportText)).toContain('Changed by Contoso Configuration Sync on');
    const digest = digestNewFindings(emptyLedger('19:channel'), [posture], new Date('2026-11-23T09:00:00Z'));
    const card = newFindingsCard(digest, { ...options, rowsByReport: new Map([['security-posture', posture.rows]]) });
    expect(cardProblems(card)).toEqual([]);
    expect(renderedText(card)).toContain(`Changed by dana.lopez@contoso-demo.example on ${when}`);
  });
});

describe('the card check itself', () => {
  it('reports an unknown element and an action without its url', () => {
    const problems = cardProblems({ type: 'AdaptiveCard', version: '1.5', body: [{ type: 'NoSuchElement' }], actions: [{ type: 'Action.OpenUrl', title: 'Go' }] });
    expect(problems.length).toBeGreaterThanOrEqual(2);
  });
});

describe('report cards', () => {
  it('parse without errors for each of the seven demo reports, with counts, the worst items and a deep link to the tab', () => {
    for (const result of demoResults) {
      const definition = REPORTS.definitions.find((report) => report.id === result.report)!;
      const card = reportCard(result, definition, options);
      expect(cardProblems(card), result.report).toEqual([]);
      expect(cardBytes(card)).toBeLessThan(TEAMS_CARD_LIMIT_BYTES);
      const text = renderedText(card);
      expect(text).toContain(result.title);
      expect(JSON.stringify(card)).toContain(`https://teams.microsoft.com/l/entity/3f1c2b7a-5d4e-4c8b-9a6f-1e2d3c4b5a69/reports?`);
      expect(JSON.stringify(card)).toContain(encodeURIComponent(JSON.stringify({ subEntityId: result.report })));
      if (result.findings.length > LISTED_FINDINGS) expect(text).toContain(`and ${(result.findings.length - LISTED_FINDINGS).toLocaleString('en-US')} more`);
    }
  });

  it('lists devices missing both escrows first on the escrow-gaps card, each linking to its Intune page', () => {
    const result = demoResults.find((report) => report.report === 'escrow-gaps')!;
    const card = reportCard(result, { beta: false }, options);
    const firstRow = result.rows[0]!;
    const text = renderedText(card);
    expect(text).toContain(String(firstRow.device));
    expect(JSON.stringify(card)).toContain(String(firstRow.link));
    expect(text.indexOf('Devices without an escrowed BitLocker key')).toBeLessThan(text.indexOf('Devices without an escrowed LAPS password'));
  });

  it('says how to fix the worst kinds behind a How to fix button, with the Microsoft Learn pages as links', () => {
    const result = demoResults.find((report) => report.report === 'escrow-gaps')!;
    const card = reportCard(result, { beta: false }, options);
    expect(cardProblems(card)).toEqual([]);
    const showCard = (card.actions as Array<{ type: string; title: string; card?: unknown }>).find((action) => action.type === 'Action.ShowCard');
    expect(showCard?.title).toBe('How to fix');
    const fixes = JSON.stringify(showCard?.card);
    const guidance = escrowGapsReport.findingKinds['missing-recovery-key'].remediation;
    expect(fixes).toContain(JSON.stringify(guidance.why).slice(1, -1));
    expect(fixes).toContain(`](${guidance.sources[0]!.url})`);
    // A card without findings has nothing to fix.
    const clean = reportCard({ ...result, findings: [] }, { beta: false }, options);
    expect((clean.actions as Array<{ type: string }>).some((action) => action.type === 'Action.ShowCard')).toBe(false);
  });

  it('counts accepted and snoozed findings apart and does not list them; says so when the decisions could not be read', () => {
    const result = demoResults.find((report) => report.report === 'escrow-gaps')!;
    const first = result.findings.find((finding) => finding.kind === 'missing-recovery-key')!;
    const card = reportCard(result, { beta: false }, { ...options, triaged: new Set([first.fingerprint]) });
    expect(cardProblems(card)).toEqual([]);
    const text = renderedText(card);
    expect(text).toContain(`${(result.findings.length - 1).toLocaleString('en-US')} open findings, worst first`);
    expect(text).toContain('1 accepted or snoozed finding is not listed; the tab shows it.');
    const mentions = (rendered: string) => rendered.split(first.subjectName).length - 1;
    expect(mentions(text)).toBe(mentions(renderedText(reportCard(result, { beta: false }, options))) - 1);
    const allTriaged = reportCard(result, { beta: false }, { ...options, triaged: new Set(result.findings.map((finding) => finding.fingerprint)) });
    expect(renderedText(allTriaged)).toContain('No open findings: the others are accepted or snoozed.');
    expect(renderedText(reportCard(result, { beta: false }, { ...options, triaged: null }))).toContain(
      'Accepted and snoozed findings could not be read, so every finding is listed.',
    );
  });

  it('shows the load error with the upstream status, and no counts', () => {
    const failed: ReportResult = {
      ...demoResults[0]!,
      state: 'load-error',
      error: { status: 403, code: 'Forbidden', message: 'Graph answered 403 Forbidden for GET /beta/deviceManagement/ndesConnectors' },
      rows: [],
      findings: [],
    };
    const card = reportCard(failed, { beta: false }, options);
    expect(cardProblems(card)).toEqual([]);
    const text = renderedText(card);
    expect(text).toContain('Graph answered 403');
    expect(text).not.toContain('No findings');
  });

  it('shows the empty notice word for word', () => {
    const empty: ReportResult = {
      ...demoResults[5]!,
      state: 'empty',
      notice: 'Endpoint analytics returned no device performance data. Is endpoint analytics enabled for this tenant?',
      rows: [],
      findings: [],
    };
    const text = renderedText(reportCard(empty, { beta: false }, options));
    expect(text).toContain('Endpoint analytics returned no device performance data. Is endpoint analytics enabled for this tenant?');
  });

  it('stays under 28 KB with 100,000 findings whose names and details are long', () => {
    const card = reportCard(syntheticResult(100_000), { beta: false }, options);
    expect(cardProblems(card)).toEqual([]);
    expect(cardBytes(card)).toBeLessThan(TEAMS_CARD_LIMIT_BYTES);
    expect(renderedText(card)).toContain('and 99,995 more');
  });

  it('keeps tenant text out of Markdown and templating: names travel as text runs', () => {
    const result = syntheticResult(1);
    result.findings[0]!.subjectName = '[click me](https://evil.example) ${title} **bold**';
    const card = reportCard(result, { beta: false }, options);
    const text = renderedText(card);
    expect(text).toContain('[click me](https://evil.example) ${title} **bold**');
    expect(JSON.stringify(card)).not.toContain('"type":"TextBlock","text":"[click me]');
  });

  it('puts a name on one line, without the bidirectional formatting that would make it read otherwise', () => {
    const result = syntheticResult(1);
    result.findings[0]!.subjectName = 'invoice\u202Efdp.exe\nSECOND LINE\u2066x\u2069';
    const serialised = JSON.stringify(reportCard(result, { beta: false }, options));
    expect(serialised).toContain('invoicefdp.exe SECOND LINEx');
    expect(serialised).not.toMatch(/[\u061C\u200E\u200F\u202A-\u202E\u2066-\u2069]|\\n SECOND/);
  });
});

describe('the new-findings card', () => {
  it('parses and stays under 28 KB for 100,000 new findings in each of two reports', () => {
    const big = syntheticResult(100_000);
    const digest = digestNewFindings(
      emptyLedger('19:channel'),
      [big, { ...big, report: 'connector-health', title: 'Connector & Integration Health' }],
      new Date('2026-11-23T09:00:00Z'),
    );
    const card = newFindingsCard(digest, { ...options, rowsByReport: new Map([['escrow-gaps', big.rows]]) });
    expect(cardProblems(card)).toEqual([]);
    expect(cardBytes(card)).toBeLessThan(TEAMS_CARD_LIMIT_BYTES);
    expect(renderedText(card)).toContain('200,000 new findings in Contoso (demo)');
  });

  it('says what could not be checked and what was resolved', () => {
    const escrow = demoResults.find((report) => report.report === 'escrow-gaps')!;
    const first = digestNewFindings(emptyLedger('19:channel'), [escrow], new Date('2026-11-22T09:00:00Z'));
    const withoutLaps: ReportResult = {
      ...escrow,
      columns: escrow.columns.map((column) => (column.key === 'lapsPassword' ? { ...column, available: false } : column)),
      unchecked: ['missing-laps-password'],
      findings: escrow.findings.filter((finding) => finding.kind !== 'missing-laps-password').slice(1),
    };
    const failed: ReportResult = { ...demoResults[0]!, state: 'load-error', error: { status: 403, code: 'Forbidden', message: 'no' }, findings: [], rows: [] };
    const digest = digestNewFindings(first.nextLedger, [withoutLaps, failed], new Date('2026-11-23T09:00:00Z'));
    const card = newFindingsCard(digest, { ...options, rowsByReport: new Map() });
    expect(cardProblems(card)).toEqual([]);
    const text = renderedText(card);
    expect(text).toContain('Nothing new in Contoso (demo)');
    expect(text).toContain('1 resolved');
    expect(text).toContain('Not checked (permission not granted): devices without an escrowed LAPS password.');
    expect(text).toContain('Could not check: Graph answered 403');
  });
});

describe('cards say which checks did not run', () => {
  /** Report 4 as a load without BitlockerKey.ReadBasic.All makes it (the registry's `notChecked`), with its Medium findings only. */
  function withoutKeys(): ReportResult {
    const escrow = demoResults.find((report) => report.report === 'escrow-gaps')!;
    const columns = escrow.columns.map((column) => (column.key === 'recoveryKey' ? { ...column, available: false } : column));
    return {
      ...escrow,
      columns,
      unchecked: ['missing-recovery-key', 'recovery-key-not-in-entra'],
      notChecked: notCheckedSources(escrowGapsReport.optionalSources, columns, escrowGapsReport.findingKinds),
      findings: escrow.findings.filter((finding) => finding.kind === 'missing-laps-password'),
    };
  }

  it('the report card names the checks, the permission and how bad it could be, before the findings', () => {
    const card = reportCard(withoutKeys(), { beta: false }, options);
    expect(cardProblems(card)).toEqual([]);
    const text = renderedText(card);
    const notChecked = text.indexOf('Not checked: 2 checks, up to High.');
    expect(notChecked).toBeGreaterThanOrEqual(0);
    expect(notChecked).toBeLessThan(text.indexOf('worst first'));
    expect(text).toContain('Devices without an escrowed BitLocker key (High)');
    expect(text).toContain('BitlockerKey.ReadBasic.All');
  });

  it('the overview card says so under the report, and a report with only Medium findings but an unrun High check is not "Warning"', () => {
    const summary = summarizeReport(withoutKeys(), { changes: null, trend: [], inForce: new Map(), now: new Date('2026-11-23T09:00:00Z') });
    expect(summary.worst).toBe('medium');
    const card = overviewCard([summary], { ...options, tabUrl: 'http://127.0.0.1:3978/tab/' });
    expect(cardProblems(card)).toEqual([]);
    expect(renderedText(card)).toContain('Not checked: 2 checks, up to High. Needs BitlockerKey.ReadBasic.All, not granted.');
    expect(JSON.stringify(card)).toContain('"color":"Attention"');
  });

  it("the channel's new-findings card names the permission and how bad the unrun checks could be", () => {
    const digest = digestNewFindings(emptyLedger('19:channel'), [withoutKeys()], new Date('2026-11-23T09:00:00Z'));
    const card = newFindingsCard(digest, { ...options, rowsByReport: new Map() });
    expect(cardProblems(card)).toEqual([]);
    expect(renderedText(card)).toContain(
      'Not checked: 2 checks, up to High. Needs BitlockerKey.ReadBasic.All, not granted. Earlier findings of those checks are not counted as resolved.',
    );
  });

  it('a report with no findings from the checks that ran is not shown as good news', () => {
    const card = reportCard({ ...withoutKeys(), findings: [] }, { beta: false }, options);
    const text = renderedText(card);
    expect(text).toContain('No findings from the checks that ran.');
    expect(text).not.toContain('nothing here needs attention');
    expect(JSON.stringify(card)).not.toContain('"color":"Good"');
  });

  it('a card of a failed load says when it failed, not when it read', () => {
    // The load's time is the test's own, not today's: the card names the month it failed.
    const failed: ReportResult = {
      ...demoResults[0]!,
      generatedAt: '2026-11-23T09:00:00Z',
      state: 'load-error',
      error: { status: 503, code: 'ServiceUnavailable', message: 'down' },
      findings: [],
      rows: [],
    };
    const text = renderedText(reportCard(failed, { beta: false }, options));
    expect(text).toContain('failed Nov');
    expect(text).not.toContain('read Nov');
  });
});

describe('the help card', () => {
  it('names every command, and quotes what was not understood', () => {
    const card = helpCard({ tenantLabel: 'Contoso (demo)', tabUrl: 'http://127.0.0.1:3978/tab/', unknown: 'make coffee', commands: BOT_COMMANDS });
    expect(cardProblems(card)).toEqual([]);
    const text = renderedText(card);
    for (const { command } of BOT_COMMANDS) expect(text).toContain(command);
    expect(text).toContain('"make coffee"');
  });
});

describe('tenant and user text in every card', () => {
  /** What a tenant's name, a device's, a person's or an upstream error message could say. */
  const HOSTILE = '[Click to re-authenticate](https://evil.example) **URGENT**';
  const hostile = { tenantLabel: `Contoso ${HOSTILE}`, tabLinks };
  /** Shows the hostile text, and only in text runs, never where Teams reads Markdown. */
  const expectInert = (card: AdaptiveCardJson) => {
    expect(cardProblems(card)).toEqual([]);
    const { blocks, runs } = cardTexts(card);
    expect(blocks.filter((text) => text.includes('evil.example'))).toEqual([]);
    expect(runs.some((text) => text.includes(HOSTILE))).toBe(true);
  };
  const withHostileNames = (result: ReportResult): ReportResult => ({
    ...result,
    findings: result.findings.map((finding) => ({ ...finding, subjectName: `${finding.subjectName} ${HOSTILE}` })),
  });
  const failed = (result: ReportResult): ReportResult => ({
    ...result,
    state: 'load-error',
    error: { status: 400, code: 'BadRequest', message: `Graph answered 400 for GET /v1.0/x: ${HOSTILE}` },
    rows: [],
    findings: [],
  });

  it('the help card: the tenant, the quoted message and who set the schedule', () => {
    const schedule: PostSchedule = {
      channel: '19:channel',
      name: 'General',
      cadence: { every: 'day' },
      time: { hour: 9, minute: 0 },
      timeZone: 'UTC',
      reports: ['escrow-gaps'],
      reference: {},
      setBy: `${HOSTILE}\nsecond line`,
      setAt: '2026-11-23T08:00:00.000Z',
      lastSlot: null,
      lastRun: null,
    };
    const card = helpCard({
      ...hostile,
      tabUrl: 'http://127.0.0.1:3978/tab/',
      unknown: HOSTILE,
      commands: BOT_COMMANDS,
      schedule: scheduleSentence(schedule, new Date('2026-11-23T10:00:00Z')),
    });
    expectInert(card);
    expect(cardTexts(card).runs).toContain(`Contoso ${HOSTILE}`);
    expect(cardTexts(card).runs.some((text) => text.includes(`Set by ${HOSTILE} second line.`))).toBe(true);
  });

  it('a report card: the tenant, the names of what was found, and the load error', () => {
    const result = withHostileNames(demoResults.find((report) => report.report === 'escrow-gaps')!);
    expectInert(reportCard(result, { beta: false }, hostile));
    expectInert(reportCard(failed(result), { beta: false }, hostile));
  });

  it('the overview card: the tenant and a load error', () => {
    const now = new Date('2026-11-23T10:00:00Z');
    const summaries = demoResults.map((result, index) => summarizeReport(index === 0 ? failed(result) : result, { changes: null, trend: [], inForce: new Map(), now }));
    const card = overviewCard(summaries, { ...hostile, tabUrl: 'http://127.0.0.1:3978/tab/' });
    expectInert(card);
    expect(cardTexts(card).runs.filter((text) => text.includes(HOSTILE))).toHaveLength(2);
  });

  it('the new-findings card: the tenant and the names of what is new', () => {
    const escrow = withHostileNames(demoResults.find((report) => report.report === 'escrow-gaps')!);
    const digest = digestNewFindings(emptyLedger('19:channel'), [escrow], new Date('2026-11-23T09:00:00Z'));
    const card = newFindingsCard(digest, { ...hostile, rowsByReport: new Map([['escrow-gaps', escrow.rows]]) });
    expectInert(card);
    // The headline names the tenant, clipped to 60 characters.
    expect(cardTexts(card).runs.some((text) => text.includes('new findings in Contoso [Click to re-authenticate](https://evil.example)'))).toBe(true);
  });
});

/** Every text a card shows, one a line. */
function allText(card: AdaptiveCardJson): string {
  const { blocks, runs } = cardTexts(card);
  return [...blocks, ...runs].join('\n');
}

describe('words on the cards', () => {
  const now = new Date('2026-11-23T09:00:00Z');

  it('count one finding in the singular and keep product names as Microsoft writes them', () => {
    const one = syntheticResult(2);
    const result = { ...one, findings: one.findings.slice(0, 2) };
    const card = overviewCard([summarizeReport(result, { changes: null, trend: [], inForce: new Map(), now })], { ...options, tabUrl: 'https://health.contoso.example/tab/' });
    const text = allText(card);
    expect(text).toContain('1 device without an escrowed LAPS password');
    expect(text).toContain('1 device without an escrowed BitLocker key');
    expect(text).not.toMatch(/bitlocker|laps/);
    expect(text).not.toMatch(/\b1 (?:devices|findings|rows|policies|areas)\b/);
    const report = allText(reportCard(result, { beta: false }, options));
    expect(report).toContain('2 findings, worst first');
    expect(report).toContain('Device without an escrowed BitLocker key');
  });

  it('ask the reader for what they can get, never for a server setting', () => {
    for (const result of demoResults) {
      const text = allText(reportCard(result, { beta: false }, options));
      expect(text, result.report).not.toMatch(/GRAPH_BETA_COVERAGE|Set [A-Z_]{4,}=/);
    }
    const hygiene = demoResults.find((result) => result.report === 'assignment-hygiene')!;
    expect(allText(reportCard(hygiene, { beta: false }, options))).toContain(
      "Whoever runs this app can have it read Microsoft Graph's beta version, as the Intune admin center does",
    );
  });
});

describe('the "what applies" card: what could not be decided', () => {
  it('speaks of one object in the singular, and of "the same reason" only for several', () => {
    expect(undecidedSentence(1, 1, 'Could not be decided (1)')).toBe(
      'One object may or may not apply: the app could not tell. Could not be decided (1) below says why. That is not "does not apply".',
    );
    expect(undecidedSentence(3, 1, 'Could not be decided (3)')).toContain('3 objects may or may not apply, all for the same reason');
    expect(undecidedSentence(3, 2, 'Could not be decided (3)')).toContain('3 objects may or may not apply, for 2 reasons');
    expect(undecidedSentence(1, 1, 'x')).not.toMatch(/each|same reason|shown below/i);
  });
});
