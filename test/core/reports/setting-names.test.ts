/**
 * Every setting of the demo tenant, walked through each surface that shows it: reports 3 and 7
 * (their table cells, the bot's report card, the channel post of new findings, the CSV export and
 * the command line's text) and "what applies" (its answer, its card and its command line text).
 * Nowhere is a setting shown by its settings catalog id, or a choice by its option id or the code
 * at its end, where the definition Graph sent with the settings names it (docs/finding-rules.md,
 * "Settings as the admin center names them"). The id stays in the finding's detail ("Setting id
 * …"), which the CSV and the cards carry whole, and in the JSON.
 */

import { describe, expect, it } from 'vitest';
import { appliesCard } from '../../../src/bot/cards/applies-card.js';
import { newFindingsCard } from '../../../src/bot/cards/new-findings-card.js';
import { reportCard } from '../../../src/bot/cards/report-card.js';
import { createTabLinks } from '../../../src/bot/tab-links.js';
import { createServices } from '../../../src/app/create-services.js';
import type { AppliesResult } from '../../../src/core/applies/applies-result.js';
import { appliesToText } from '../../../src/cli/applies-text.js';
import { reportToText } from '../../../src/cli/report-text.js';
import { APPLIES_DEMO } from '../../../src/core/applies/demo.js';
import { digestNewFindings } from '../../../src/core/ledger/new-findings.js';
import { emptyLedger } from '../../../src/core/ledger/channel-ledger.js';
import { REPORTS } from '../../../src/core/reports/registry.js';
import type { ReportResult } from '../../../src/core/reports/report-model.js';
import { reportToCsv } from '../../../src/core/reports/report-csv.js';
import { buildDemoTenant } from '../../../src/sim/tenants/demo-tenant.js';
import { cardTexts } from '../../support/card-texts.js';
import { found } from '../../support/applies-answer.js';
import { useTestSimulator } from '../../support/simulated-tenant.js';

const now = new Date('2026-11-22T09:00:00Z');
const tenant = buildDemoTenant({ now, registry: REPORTS });
const harness = useTestSimulator({ tenant });

interface Definition {
  id?: string;
  displayName?: string;
  options?: Array<{ itemId?: string; displayName?: string }>;
}

/** What the demo's policies set, as the simulator serves it: every setting's id, each choice's value, and the definitions that name them. */
function demoSettings(): { settingIds: Set<string>; choices: Map<string, string>; names: Map<string, string> } {
  const settingIds = new Set<string>();
  const choices = new Map<string, string>();
  const names = new Map<string, string>();
  const walk = (node: unknown): void => {
    if (Array.isArray(node)) return node.forEach(walk);
    if (typeof node !== 'object' || node === null) return;
    const record = node as Record<string, unknown>;
    if (typeof record.settingDefinitionId === 'string') settingIds.add(record.settingDefinitionId);
    const choice = record.choiceSettingValue as { value?: unknown } | undefined;
    if (typeof record.settingDefinitionId === 'string' && typeof choice?.value === 'string') choices.set(choice.value, record.settingDefinitionId);
    for (const [key, value] of Object.entries(record)) if (key !== 'settingDefinitions') walk(value);
  };
  for (const policy of tenant.collections.configurationPolicies as unknown as Array<{ settings?: Array<{ settingInstance?: unknown; settingDefinitions?: Definition[] }> }>) {
    for (const setting of policy.settings ?? []) {
      walk(setting.settingInstance);
      for (const definition of setting.settingDefinitions ?? []) {
        if (definition.id && definition.displayName) names.set(definition.id, definition.displayName);
        for (const option of definition.options ?? []) if (option.itemId && option.displayName) names.set(option.itemId, option.displayName);
      }
    }
  }
  return { settingIds, choices, names };
}

const tabLinks = createTabLinks({ teamsAppId: '3f1c2b7a-5d4e-4c8b-9a6f-1e2d3c4b5a69', tabUrl: 'https://health.contoso.example/tab/' });

/** The one place a setting's id is shown on purpose: the finding's detail, "Setting id <id>." */
const withoutIdSentence = (text: string) => text.replace(/Setting id \S+\. /g, '');

/** Every text a surface shows of a report, one entry a cell, a card text or a line. */
function reportSurfaces(result: ReportResult): Record<string, string[]> {
  const definition = REPORTS.definitions.find((candidate) => candidate.id === result.report)!;
  const card = cardTexts(reportCard(result, definition, { tenantLabel: 'Contoso (demo)', tabLinks }));
  const digest = digestNewFindings(emptyLedger('19:channel'), [result], now);
  const post = cardTexts(newFindingsCard(digest, { tenantLabel: 'Contoso (demo)', tabLinks, rowsByReport: new Map([[result.report, result.rows]]) }));
  return {
    'table cell': result.rows.flatMap((row) => result.columns.map((column) => String(row[column.key] ?? ''))),
    'finding name': result.findings.map((finding) => finding.subjectName),
    'card text': [...card.blocks, ...card.runs],
    'channel post text': [...post.blocks, ...post.runs],
    'CSV line': reportToCsv(result).split('\n'),
    'CLI line': reportToText(result, definition, { color: false, width: null }).split('\n'),
    // A finding's story: the values its object's changes set, from Intune's audit log.
    'story value': Object.values(result.auditLog?.state === 'read' ? result.auditLog.changes : {})
      .flat()
      .flatMap((change) => change.properties.flatMap((property) => [property.oldValue ?? '', property.newValue ?? ''])),
  };
}

function appliesSurfaces(result: AppliesResult): Record<string, string[]> {
  const card = cardTexts(appliesCard(result, { tenantLabel: 'Contoso (demo)', tabUrl: 'https://health.contoso.example/tab/' }));
  const conflicts = found(result).conflicts;
  const settings = conflicts.state === 'checked' ? conflicts.settings : [];
  return {
    'answer setting': settings.flatMap((setting) => [setting.setting, setting.applied, ...setting.policies.map((policy) => policy.value)]),
    'card text': [...card.blocks, ...card.runs],
    'CLI line': appliesToText(result).split('\n'),
  };
}

/** The texts that show a setting's id or a choice's option id where a definition names it: "<surface>: <text>". */
function shownByIds(surfaces: Record<string, string[]>, settingIds: ReadonlySet<string>, names: ReadonlyMap<string, string>): string[] {
  const named = [...settingIds].filter((id) => names.has(id));
  const problems: string[] = [];
  for (const [surface, texts] of Object.entries(surfaces)) {
    for (const text of texts) {
      const shown = withoutIdSentence(text).toLowerCase();
      const id = named.find((candidate) => shown.includes(candidate.toLowerCase()));
      if (id) problems.push(`${surface}: ${text}`);
    }
  }
  return problems;
}

/**
 * The values shown that are a choice's raw code where its option is named: the end of an option id
 * the demo chooses for one of these settings (`2` of Scheduled Install Day), or the whole option id.
 */
function rawChoices(settingIds: readonly string[], values: readonly string[], choices: ReadonlyMap<string, string>, names: ReadonlyMap<string, string>): string[] {
  const raw = new Set<string>();
  for (const [value, settingId] of choices) {
    const name = names.get(value);
    if (!settingIds.includes(settingId) || !name) continue;
    raw.add(value);
    // An option its definition names by its code ("1") is shown by its name when shown so.
    if (name !== value.slice(settingId.length + 1)) raw.add(value.slice(settingId.length + 1));
  }
  return values.filter((value) => raw.has(value));
}

const policyValues = (cell: string) => [...cell.matchAll(/"[^"]*": ([^;]*)(?:;|$)/g)].map((match) => match[1]!.trim());

describe('every setting of the demo, through every surface, as the admin center names it', () => {
  it('carries a definition for every setting the demo sets and every option it chooses', () => {
    const { settingIds, choices, names } = demoSettings();
    expect([...settingIds].filter((id) => !names.has(id))).toEqual([]);
    expect([...choices.keys()].filter((value) => !names.has(value))).toEqual([]);
    // As Microsoft's settings catalog names them (the task's example: Scheduled Install Day, Monday).
    expect(names.get('device_vendor_msft_policy_config_update_scheduledinstallday')).toBe('Scheduled Install Day');
    expect(names.get('device_vendor_msft_policy_config_update_scheduledinstallday_2')).toBe('Monday');
    expect(names.get('device_vendor_msft_policy_config_update_scheduledinstallday_0')).toBe('Every day');
  });

  it('shows no setting id and no raw choice in reports 3 and 7: table, cards, channel post, CSV and command line', async () => {
    const { settingIds, choices, names } = demoSettings();
    for (const id of ['security-posture', 'setting-conflicts']) {
      const result = await REPORTS.load(id, harness.client(), { now: () => now });
      expect(result.error).toBeNull();
      expect(result.rows.length).toBeGreaterThan(0);
      const surfaces = reportSurfaces(result);
      expect(shownByIds(surfaces, settingIds, names), id).toEqual([]);
      if (id === 'setting-conflicts') {
        // Each row is one setting, its id the row's: its policies' values are that setting's.
        for (const row of result.rows) expect(rawChoices([String(row.id)], policyValues(String(row.policies ?? '')), choices, names), String(row.id)).toEqual([]);
      } else {
        // Report 3's rows are its ASR rules and firewall profiles, by policy: no value is any of their codes.
        const values = result.rows.map((row) => String(row.value ?? ''));
        expect(values.length).toBeGreaterThan(0);
        expect(rawChoices([...settingIds], values, choices, names)).toEqual([]);
      }
      // Nothing said about settings shown by id: every one was named.
      expect(result.notice ?? '', id).not.toContain('settings catalog id');
    }
    const conflicts = await REPORTS.load('setting-conflicts', harness.client(), { now: () => now });
    const lines = reportSurfaces(conflicts);
    // The example the admin center gives: Scheduled Install Day, Monday against Saturday, on every surface.
    for (const surface of ['table cell', 'CSV line', 'CLI line'])
      expect(lines[surface]!.some((text) => text.includes('Scheduled Install Day')) && lines[surface]!.some((text) => text.includes('Monday')), surface).toBe(true);
    // The id stays in the detail, which the CSV carries.
    expect(lines['CSV line']!.some((line) => line.includes('Setting id device_vendor_msft_policy_config_update_scheduledinstallday.'))).toBe(true);
  });

  it('shows no setting id and no raw choice in what applies: answer, card and command line', async () => {
    const { settingIds, choices, names } = demoSettings();
    const services = createServices({
      connection: { tenantLabel: 'Contoso (demo)', demo: true, tenantKey: 'demo-contoso', graph: harness.client() },
      cacheMaxAgeMs: 60_000,
      log: () => undefined,
    });
    for (const device of ['CONTOSO-0002', APPLIES_DEMO.device]) {
      const result = await services.applies!.applies(device);
      const conflicts = found(result).conflicts;
      if (conflicts.state !== 'checked') throw new Error(`the conflicts of ${device} were not checked: ${conflicts.state}`);
      expect(conflicts.settings.length).toBeGreaterThan(0);
      expect(shownByIds(appliesSurfaces(result), settingIds, names), device).toEqual([]);
      for (const setting of conflicts.settings) {
        const values = setting.policies.map((policy) => policy.value);
        expect(rawChoices([setting.settingDefinitionId], values, choices, names), setting.settingDefinitionId).toEqual([]);
      }
      // The id stays in the JSON.
      expect(conflicts.settings.every((setting) => settingIds.has(setting.settingDefinitionId))).toBe(true);
      expect(conflicts.notes.join(' ')).not.toContain('settings catalog id');
    }
  });
});
