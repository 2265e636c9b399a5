import { createRequire } from 'node:module';
import { beforeAll, describe, expect, it } from 'vitest';
import { AppliesService } from '../../src/app/applies-service.js';
import type { AppliesResult } from '../../src/core/applies/applies-result.js';
import type { AppliesEntry } from '../../src/core/applies/entry-types.js';
import { APPLIES_DEMO } from '../../src/core/applies/demo.js';
import { TEAMS_CARD_LIMIT_BYTES, cardBytes } from '../../src/bot/cards/adaptive-card.js';
import type { AdaptiveCardJson } from '../../src/bot/cards/adaptive-card.js';
import { LISTED_ENTRIES, appliesCard } from '../../src/bot/cards/applies-card.js';
import { LISTED_CONFLICTS, POLICIES_PER_CONFLICT } from '../../src/bot/cards/applies-conflicts.js';
import type { BotReply, Conversation } from '../../src/bot/commands/command.js';
import { personalRequest } from '../support/bot-request.js';
import { COMMANDS } from '../../src/bot/commands/index.js';
import { appliesQuery, whatApplies } from '../../src/bot/commands/what-applies.js';
import { readMessage } from '../../src/bot/read-message.js';
import { REPORTS } from '../../src/core/reports/registry.js';
import { withDenied } from '../../src/server/demo-switches.js';
import { buildDemoTenant } from '../../src/sim/tenants/demo-tenant.js';
import { useTestSimulator } from '../support/simulated-tenant.js';
import { cardTexts } from '../support/card-texts.js';
import { PHRASINGS } from '../fixtures/bot-phrasings.js';

// As `npm start -- --deny Device.Read.All` runs the demo: device groups unknown, the permission named, and so a possible conflict.
const harness = useTestSimulator({ tenant: withDenied(buildDemoTenant(), ['Device.Read.All']) });
const options = { tenantLabel: 'Contoso (demo)', tabUrl: 'https://health.contoso.example/tab/' };

/** What a message asks, as the registry of commands reads it. */
const asks = (text: string) => readMessage(text, COMMANDS, REPORTS).reading as { kind: string };
/** The words a message is read as: the command it means, else its own words. */
const readAs = (text: string) => readMessage(text, COMMANDS, REPORTS).text;

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

beforeAll(async () => {
  // As cards.test.ts: the renderer needs a DOM, which this Node test lends it from jsdom.
  const { JSDOM } = createRequire(import.meta.url)('jsdom') as {
    JSDOM: new (html: string) => { window: Record<string, unknown> & { document: unknown; HTMLElement: { prototype: object } } };
  };
  const { window } = new JSDOM('<!doctype html><html><body></body></html>');
  const domTypes = Object.getOwnPropertyNames(window).filter((name) => /^(HTML\w*Element|Element|Node|Text|DocumentFragment)$/.test(name));
  Object.assign(globalThis, { window, document: window.document }, Object.fromEntries(domTypes.map((name) => [name, window[name]])));
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
});

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

/** Every text of the card, its shown cards included. */
function allText(card: AdaptiveCardJson): string {
  const { blocks, runs } = cardTexts(card);
  return [...blocks, ...runs].join('\n');
}

describe('asking what applies', () => {
  it.each([
    ['what applies to DESKTOP-0042', 'DESKTOP-0042'],
    ['What applies to DESKTOP-0042?', 'DESKTOP-0042'],
    ['what does alice@contoso.com get', 'alice@contoso.com'],
    ['What does alice@contoso.com get?', 'alice@contoso.com'],
    ["what's assigned to the device CONTOSO-0040", 'CONTOSO-0040'],
    ['which apps apply to Sales EMEA?', 'Sales EMEA'],
    ['which policies apply to user user41@contoso-demo.example', 'user41@contoso-demo.example'],
    ['show me what applies to CONTOSO-0040', 'CONTOSO-0040'],
    ['effective assignments for CONTOSO-0040', 'CONTOSO-0040'],
    ['applies CONTOSO-0040', 'CONTOSO-0040'],
    ['please, what is applied to "Sales EMEA"', 'Sales EMEA'],
  ])('reads "%s" as a question about %s, in the words as sent', (text, query) => {
    expect(appliesQuery(text)).toBe(query);
    expect(asks(text)).toEqual({ kind: 'applies', query });
    expect(readAs(text)).toMatch(/^what applies to /);
  });

  it('leaves every report phrasing and command to its report', () => {
    for (const [report, phrasings] of Object.entries(PHRASINGS)) {
      for (const phrasing of phrasings) expect(asks(phrasing), phrasing).toEqual({ kind: 'show', report });
    }
    for (const text of ['show escrow gaps', 'which policies are not assigned to anyone', 'what is targeted at all users and all devices', 'show overview', 'help']) {
      expect(asks(text).kind, text).not.toBe('applies');
    }
    expect(REPORTS.ids.length).toBeGreaterThan(0);
  });

  it('answers the help line itself with how to ask', async () => {
    expect(asks('what applies to [name]')).toEqual({ kind: 'applies', query: '' });
    const reply = await whatApplies.handle(
      personalRequest('what applies to [name]'),
      { kind: 'applies', query: '' },
      context(async () => Promise.reject(new Error('not asked'))),
    );
    expect(reply).toEqual({ text: expect.stringContaining('what applies to CONTOSO-0040') });
  });
});

describe('the answer card on the demo tenant', () => {
  it('groups a device with a nested path, an exclusion, a filter and an unreadable group by type, and validates', async () => {
    const service = new AppliesService({ graph: harness.client(), maxAgeMs: 60_000, log: () => undefined });
    const result = await service.applies(APPLIES_DEMO.device);
    expect(result.kind).toBe('found');
    const card = appliesCard(result, options);
    expect(cardProblems(card)).toEqual([]);
    expect(cardBytes(card)).toBeLessThan(TEAMS_CARD_LIMIT_BYTES);
    const text = allText(card);
    expect(text).toContain('What applies to device CONTOSO-0040');
    expect(text).toContain('Configuration profiles (');
    expect(text).toContain(`Excluded: ${APPLIES_DEMO.exclusion.join(' → ')}`);
    expect(text).toContain(APPLIES_DEMO.chain.join(' → '));
    // The group that could not be read: named, with why, and never "does not apply".
    // Device groups, which this app may not read (Device.Read.All), an exclusion group whose
    // membership is hidden, and an intent whose template Graph no longer lists, so its platform cannot be told.
    expect(text).toMatch(/Could not be decided \(\d+\)/);
    expect(text).toContain('Device.Read.All');
    expect(text).toContain(`Assigned to ${APPLIES_DEMO.unreadable}, whose membership could not be told`);
    expect(JSON.stringify(card)).toContain('https://intune.microsoft.com/');
    // Its setting conflicts: the camera set both ways to All devices, neither applied; the private
    // firewall profile possibly, as one of its policies could not be decided; the merged Defender exclusions and firewall rules counted.
    expect(text).toContain('Setting conflicts\n');
    expect(text).toContain('1 setting in conflict, 1 possible conflict, 0 duplicates and 2 merged settings.');
    // Named as the admin center names the setting and its options (docs/finding-rules.md, "Settings as the admin center names them").
    expect(text).toContain('Conflict\n · \nAllow Camera');
    expect(text).toContain('Applied: Neither value. Intune reports a conflict and applies neither setting until only one policy sets it.');
    expect(text).toContain('Devices - camera allowed: Allowed.; Devices - camera blocked (meeting rooms): Not allowed.');
    expect(text).toContain('Firewall - Corporate: True; Firewall - Branch offices (policy set) (could not be decided): False');
    expect(text).not.toContain('device_vendor_msft_policy_config_defender_excludedpaths');
  });

  it('speaks to Teams users of what it leaves out, offering the tab, and prints no heading with nothing under it', async () => {
    const service = new AppliesService({ graph: harness.client(), maxAgeMs: 60_000, log: () => undefined });
    const card = appliesCard(await service.applies(APPLIES_DEMO.device), options);
    const text = allText(card);
    expect(text).not.toContain('dmhealth');
    expect(text).toMatch(/not listed here: .+\(\d+\)\. Open the reports \(below\) to see every one in the tab\./);
    type Element = { type?: string; text?: string; isSubtle?: boolean; items?: Element[] };
    const containers: Element[] = [];
    const walk = (value: unknown): void => {
      if (Array.isArray(value)) value.forEach(walk);
      else if (value && typeof value === 'object') {
        if ((value as Element).type === 'Container') containers.push(value as Element);
        Object.values(value).forEach(walk);
      }
    };
    walk(card);
    // The object types' sections (the undecided ones fold into a section of their own, opened on demand).
    const typeSections = containers.filter((container) => /^(?!Could not be decided)[A-Z][^\n]* \([\d,]+\)$/.test(container.items?.[0]?.text ?? ''));
    expect(typeSections.length).toBeGreaterThan(0);
    for (const section of typeSections)
      expect(
        section.items!.slice(1).some((item) => item.isSubtle !== true),
        section.items![0]!.text,
      ).toBe(true);
  });

  it("says on the card when a device's conflicts could not be checked, and why", async () => {
    const service = new AppliesService({ graph: harness.client(), maxAgeMs: 60_000, log: () => undefined });
    await service.applies(APPLIES_DEMO.user); // the assignments first, so that only the policies' settings, read through beta's $batch, fail
    const removeFault = harness.sim.faults.add({ path: '/beta/$batch', status: 403 });
    let result: AppliesResult;
    try {
      result = await service.applies(APPLIES_DEMO.device);
    } finally {
      removeFault();
    }
    const card = appliesCard(result, options);
    expect(cardProblems(card)).toEqual([]);
    expect(allText(card)).toMatch(/Setting conflicts could not be checked: .*403.*That is not "no conflicts"\./);
    expect(JSON.stringify(card)).toContain('"style":"warning"');
  });

  it('says what was not found, and lists the candidates of an ambiguous name as commands to send', async () => {
    const service = new AppliesService({ graph: harness.client(), maxAgeMs: 60_000, log: () => undefined });
    const notFound = appliesCard(await service.applies('NO-SUCH-DEVICE'), options);
    expect(cardProblems(notFound)).toEqual([]);
    expect(allText(notFound)).toContain('Nothing is called "NO-SUCH-DEVICE"');
    const ambiguous: AppliesResult = {
      kind: 'ambiguous',
      query: 'CONTOSO-0007',
      candidates: [
        { kind: 'device', id: '0a000000-0000-4000-8000-000000000001', name: 'CONTOSO-0007', detail: 'Windows device, last user user7' },
        { kind: 'device', id: '0a000000-0000-4000-8000-000000000002', name: 'CONTOSO-0007', detail: 'Windows device, last user user8' },
      ],
      more: 3,
      words: 'Two devices and more are called "CONTOSO-0007".',
      requests: 0,
    };
    const card = appliesCard(ambiguous, options);
    expect(cardProblems(card)).toEqual([]);
    const json = JSON.stringify(card);
    expect(json).toContain('"value":"what applies to 0a000000-0000-4000-8000-000000000001"');
    expect(allText(card)).toContain('and 3 more');
  });
});

describe('a large answer', () => {
  it('lists the first objects by name, counts the rest per type, and gathers the undecided by reason', () => {
    const entry = (index: number, verdict: AppliesEntry['verdict']): AppliesEntry => ({
      objectId: `object-${index}`,
      name: `Policy ${index} ${'n'.repeat(300)}`,
      kind: 'deviceConfiguration',
      typeLabel: 'Configuration profiles',
      link: `https://intune.microsoft.com/#view/x/${index}`,
      verdict,
      intent: null,
      platform: { kind: 'for', platforms: ['windows'], words: 'Windows' },
      path: [],
      words:
        verdict === 'unknown'
          ? `Assigned to Devices ${index % 3}, whose membership could not be told: its members include devices.`
          : `Applies through All devices ${'w'.repeat(400)}.`,
      caveats: ['Read on /v1.0, which does not show assignment filters: a filter could still keep it out.'],
    });
    const entries = [...Array.from({ length: 300 }, (_, index) => entry(index, 'applies')), ...Array.from({ length: 2000 }, (_, index) => entry(index, 'unknown'))];
    const result: AppliesResult = {
      kind: 'found',
      requests: 520,
      loadedAt: '2026-11-26T05:00:00.000Z',
      answer: {
        subject: { kind: 'group', id: 'g', name: 'All of them' },
        groups: [{ typeLabel: 'Configuration profiles', entries }],
        counts: { applies: 300, excluded: 0, dependsOnFilter: 0, unknown: 2000, notForPlatform: 0 },
        conflicts: {
          state: 'checked',
          settings: Array.from({ length: 200 }, (_, index) => ({
            settingDefinitionId: `device_vendor_msft_policy_config_${'x'.repeat(200)}_${index}`,
            setting: `device_vendor_msft_policy_config_${'x'.repeat(200)}_${index}`,
            kind: 'conflict' as const,
            security: index % 2 === 0,
            policies: Array.from({ length: 30 }, (_, policy) => ({
              objectId: `p${policy}`,
              name: `Policy ${policy} ${'n'.repeat(200)}`,
              link: null,
              verdict: 'applies' as const,
              value: 'v'.repeat(160),
            })),
            applied: 'Neither value.',
            words: 'w'.repeat(400),
          })),
          counts: { conflict: 200, possibleConflict: 0, duplicate: 0, merged: 0 },
          notes: [],
          notCompared: 0,
        },
        notes: [],
      },
    };
    const card = appliesCard(result, options);
    expect(cardProblems(card)).toEqual([]);
    expect(cardBytes(card)).toBeLessThan(TEAMS_CARD_LIMIT_BYTES);
    const text = allText(card);
    expect(text).toContain(`and ${300 - LISTED_ENTRIES} more`);
    expect(text).toContain('Could not be decided (2,000)');
    expect(text).toContain('667 objects: Assigned to Devices 0, whose membership could not be told');
    expect(text).toContain(`and ${200 - LISTED_CONFLICTS} more settings in conflict or possibly so`);
    expect(text).toContain(`; and ${30 - POLICIES_PER_CONFLICT} more`);
  });
});

describe('hostile names', () => {
  it('are shown only as text runs, never where Teams reads Markdown', () => {
    const HOSTILE = '[Click to re-authenticate](https://evil.example) **URGENT** ${tenantLabel}';
    const result: AppliesResult = {
      kind: 'ambiguous',
      query: HOSTILE,
      candidates: [{ kind: 'group', id: 'g1', name: HOSTILE, detail: HOSTILE }],
      more: 0,
      words: `Two groups are called "${HOSTILE}".`,
      requests: 0,
    };
    for (const card of [appliesCard(result, { ...options, tenantLabel: HOSTILE }), appliesCard({ kind: 'notFound', query: HOSTILE, words: HOSTILE, requests: 0 }, options)]) {
      const { blocks, runs } = cardTexts(card);
      expect(blocks.some((block) => block.includes('evil.example'))).toBe(false);
      expect(runs.some((run) => run.includes('[Click to re-authenticate](https://evil.example)'))).toBe(true);
    }
  });
});

describe('a slow first answer', () => {
  it('says it is working on it, then posts the card when the answer is ready', async () => {
    let answer!: (result: AppliesResult) => void;
    const pending = new Promise<AppliesResult>((resolve) => (answer = resolve));
    const conversation = recordingConversation();
    const reply = await whatApplies.handle(
      personalRequest('what applies to CONTOSO-0040'),
      { kind: 'applies', query: 'CONTOSO-0040' },
      context(() => pending, conversation),
    );
    expect(reply).toEqual({ text: expect.stringContaining('Working out what applies') });
    expect(conversation.sent).toEqual(['typing']);
    answer({ kind: 'notFound', query: 'CONTOSO-0040', words: 'Nothing is called "CONTOSO-0040".', requests: 3 });
    await new Promise((resolve) => setTimeout(resolve, 10));
    expect(conversation.followUps).toHaveLength(1);
    expect(JSON.stringify(conversation.followUps[0])).toContain('Nothing is called');
  });
});

function recordingConversation(): Conversation & { sent: string[]; followUps: BotReply[] } {
  const sent: string[] = [];
  const followUps: BotReply[] = [];
  return {
    sent,
    followUps,
    typing: async () => void sent.push('typing'),
    send: async (reply) => void sent.push(JSON.stringify(reply)),
    followUp: async (reply) => void followUps.push(await reply()),
  };
}

function context(applies: (query: string) => Promise<AppliesResult>, conversation = recordingConversation()): Parameters<typeof whatApplies.handle>[2] {
  return {
    applies: { applies },
    conversation,
    helpCard: () => Promise.reject(new Error('no help card here')),
    tenantLabel: options.tenantLabel,
    tabUrl: options.tabUrl,
    followUpAfterMs: 5,
    log: () => undefined,
  } as unknown as Parameters<typeof whatApplies.handle>[2];
}
