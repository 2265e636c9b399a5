import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createServices } from '../../src/app/create-services.js';
import type { AppServices } from '../../src/app/create-services.js';
import { NewFindingsPoster } from '../../src/app/new-findings-poster.js';
import type { BotServices } from '../../src/bot/bot-services.js';
import type { AdaptiveCardJson } from '../../src/bot/cards/adaptive-card.js';
import { newFindingsCardFor } from '../../src/bot/cards/new-findings-card.js';
import type { BotReply, BotRequest, Conversation } from '../../src/bot/commands/command.js';
import { COMMANDS } from '../../src/bot/commands/index.js';
import { messageDispatch } from '../../src/bot/message-dispatch.js';
import { createTabLinks } from '../../src/bot/tab-links.js';
import { REPORT_IDS } from '../../src/core/reports/registry.js';
import { REBOOT_ONLY_ROLE, VIEWER_SCOPE_DEMO } from '../../src/core/viewer-scope/demo.js';
import { APPLIES_NOT_READ_BY_ROLE } from '../../src/core/applies/scope.js';
import { scopeOfTag } from '../../src/core/viewer-scope/scope.js';
import { channelTag, scheduleReports } from '../../src/core/schedule/post-schedule.js';
import { buildDemoTenant } from '../../src/sim/tenants/demo-tenant.js';
import { FileStateStore } from '../../src/store/file-state-store.js';
import { showVersion } from '../fixtures/show-version-command.js';
import { personalRequest } from '../support/bot-request.js';
import { cardTexts } from '../support/card-texts.js';
import { simulatorConnection, simulatorTenantKey, useTestSimulator } from '../support/simulated-tenant.js';

const harness = useTestSimulator({ tenant: buildDemoTenant() });

const conversation: Conversation = { typing: async () => undefined, send: async () => undefined, followUp: async () => undefined };
const tabLinks = createTabLinks({ tabUrl: 'http://127.0.0.1:3978/tab/' });

let directory: string;
let store: FileStateStore;
let services: AppServices;
let poster: NewFindingsPoster<AdaptiveCardJson>;

beforeAll(async () => {
  directory = await mkdtemp(join(tmpdir(), 'dmhealth-bot-scope-'));
  store = await FileStateStore.open(directory, { tenant: simulatorTenantKey(harness.sim) });
  // The client reads the objects' scope tags where only beta gives them, as `npm start` opens it with the scope on.
  services = createServices({ connection: simulatorConnection(harness.sim, harness.client({ scopeTags: true })), store, viewerScope: true, log: () => undefined });
  poster = new NewFindingsPoster({ store, loadReports: (ids) => services.reports.loadFresh(ids), render: newFindingsCardFor({ tenantLabel: 'Contoso (demo)', tabLinks }) });
});
afterAll(async () => {
  await services?.reports.settled();
  await store?.close();
  await rm(directory, { recursive: true, force: true });
});

/**
 * The bot's dispatch over the application floor as the server has it with the viewer scope on:
 * reports loaded from the demo tenant once for everyone, each asker's scope from its role
 * assignments, the schedules in a state store. The fixture's command is one that has not said how
 * it keeps to a scope.
 */
function dispatchWithScope() {
  return messageDispatch(dispatchServices(), [...COMMANDS, showVersion]);
}

function dispatchServices(): BotServices {
  return {
    reports: services.reports,
    ...(services.applies ? { applies: services.applies } : {}),
    registry: services.registry,
    schedules: services.schedules!,
    poster,
    tenantLabel: 'Contoso (demo)',
    tabLinks,
    tabUrl: 'http://127.0.0.1:3978/tab/',
    followUpAfterMs: 60_000,
    now: () => new Date('2026-11-23T10:00:00Z'),
    log: () => undefined,
    viewerScopes: services.viewerScopes,
  };
}

let dispatch: ReturnType<typeof dispatchWithScope> | undefined;

async function reply(text: string, objectId: string | undefined, channel?: string): Promise<BotReply | null> {
  dispatch ??= dispatchWithScope();
  const reading = dispatch.read(text);
  const request: BotRequest = personalRequest(reading.text, reading.text, { id: '29:teams-user', objectId });
  if (channel) request.conversation = { id: channel, kind: 'channel', name: 'Europe IT › General', channel, channelReference: { conversation: { id: channel } } };
  return dispatch.answer(reading, request, conversation);
}

async function ask(text: string, objectId: string | undefined, channel?: string): Promise<string> {
  return JSON.stringify(await reply(text, objectId, channel));
}

/** Every text of a card answer; a text answer's text. */
async function texts(text: string, objectId: string | undefined, channel?: string): Promise<string[]> {
  const answer = await reply(text, objectId, channel);
  if (answer && 'card' in answer) return [...cardTexts(answer.card).blocks, ...cardTexts(answer.card).runs];
  return answer ? [answer.text] : [];
}

const administrators = () => harness.sim.tenant.demoAdministrators!;
const NOBODY = '00000000-0000-4000-8000-000000000009';

describe('the bot with the viewer scope on', () => {
  it('shows a regional asker a report in their scope tags only: the rows and findings the tab shows them', async () => {
    const regional = (await texts('show security posture', administrators().regional)).join('\n');
    const whole = (await texts('show security posture', administrators().central)).join('\n');
    expect(regional).toMatch(/Showing what your Intune role assignments let you see: scope tag Europe \(\d+ of \d+ rows\)/);
    expect(regional).toMatch(/^2 findings, worst first$/m);
    for (const name of ['ASR - Standard protection', 'Security baseline for Windows (23H2)']) expect(regional).toContain(name);
    expect(regional).not.toContain(VIEWER_SCOPE_DEMO.americasPolicies[0]);
    expect(whole).not.toContain('Showing what your Intune role assignments let you see');
    const wholeCount = Number(/^(\d+) findings, worst first$/m.exec(whole)?.[1]);
    expect(wholeCount).toBeGreaterThan(2);
  });

  it('shows a regional asker the escrow gaps of their scope tags’ devices only (report 4 read with the devices’ tags), and the central one every device’s', async () => {
    const findingsOf = (texts: readonly string[]) => Number(/^(\d+) findings, worst first$/m.exec(texts.join('\n'))?.[1]);
    const regional = await texts('show escrow gaps', administrators().regional);
    const central = await texts('show escrow gaps', administrators().central);
    // As the tab's API shows it to a viewer whose only tag is Europe: the Europe devices' rows and findings.
    const [whole] = await services.reports.loadFresh(['escrow-gaps']);
    const europe = services.viewerScopes!.view(whole!, scopeOfTag({ id: VIEWER_SCOPE_DEMO.tags.europe, displayName: 'Europe' }));
    if (!europe.ok) throw new Error(`report 4 refused to Europe: ${europe.explanation}`);
    expect(europe.result.rows).toHaveLength(VIEWER_SCOPE_DEMO.europeDevices);
    expect(europe.result.findings.length).toBeGreaterThan(0);
    expect(regional.join('\n')).toContain(
      `Showing what your Intune role assignments let you see: scope tag Europe (${VIEWER_SCOPE_DEMO.europeDevices} of ${whole!.rows.length} rows).`,
    );
    expect(findingsOf(regional)).toBe(europe.result.findings.length);
    expect(findingsOf(central)).toBe(whole!.findings.length);
    expect(findingsOf(central)).toBeGreaterThan(findingsOf(regional));
    expect(central.join('\n')).not.toContain('Showing what your Intune role assignments let you see');
  });

  it('answers a regional or central asker who asks for a tenant-wide report no Intune role permission reads (connector health) with why it is not theirs', async () => {
    const regional = await texts('show connector health', administrators().regional);
    expect(regional).toHaveLength(1);
    expect(regional[0]).toMatch(
      /^Connector & Integration Health covers the whole tenant: its objects carry no scope tags, .* Your Intune role assignments show scope tag Europe\.$/,
    );
    expect(await texts('show connector health', administrators().central)).toEqual([expect.stringMatching(/Your Intune role assignments show the whole tenant\.$/)]);
  });

  it('shows the regional asker endpoint analytics whole, since their role grants Endpoint Analytics read, and says why', async () => {
    const regional = (await texts('show startup', administrators().regional)).join('\n');
    expect(regional).toContain(`your Intune role ${VIEWER_SCOPE_DEMO.europeRole} grants Endpoint Analytics/Read, so it is shown whole`);
    const whole = (await texts('show startup', administrators().central)).join('\n');
    const count = (text: string) => Number(/^(\d+) findings, worst first$/m.exec(text)?.[1]);
    expect(count(regional)).toBe(count(whole));
    expect(count(whole)).toBeGreaterThan(0);
  });

  it('the overview: the regional asker’s scope named, their report counted in it, each tenant-wide report said to be outside it', async () => {
    const answer = await reply('show overview', administrators().regional);
    const card = JSON.stringify(answer);
    expect(card).toContain('Contoso (demo) · scope tag Europe');
    const all = cardTexts((answer as { card: unknown }).card);
    // Every report but report 3, whose policies carry their scope tags, report 2, whose beta-read objects do,
    // report 4, whose devices are read with their tags when the scope is on, report 8, whose approved
    // policies carry theirs, and report 6, which their role's Endpoint Analytics read opens.
    expect(all.blocks.filter((text) => text === 'Not in your scope')).toHaveLength(REPORT_IDS.length - 5);
    expect(all.blocks).toContain('2 open findings, worst Medium');
    expect(all.runs.filter((text) => /covers the whole tenant: its objects carry no scope tags/.test(text))).toHaveLength(REPORT_IDS.length - 5);
    // The central administrator's assignment has no scope tags, but their role reads no connectors, approvals or conflicts.
    const central = cardTexts(((await reply('show overview', administrators().central)) as { card: unknown }).card);
    expect(central.blocks.filter((text) => text === 'Not in your scope')).toHaveLength(REPORT_IDS.length - 5);
  });

  it('a command that cannot yet keep to a scope answers the whole-tenant asker only, and tells the regional one which commands do', async () => {
    expect(await ask('show version', administrators().central)).toContain('version 0.0.0');
    const regional = await ask('show version', administrators().regional);
    expect(regional).not.toContain('version 0.0.0');
    expect(regional).toContain('(yours: scope tag Europe), and \\"show version\\" cannot yet keep to a scope');
  });

  it('tells an asker with no Intune role assignment why, whatever they ask, and one Teams did not name that it cannot tell who they are', async () => {
    for (const command of ['show version', 'show security posture', 'show overview']) {
      expect(await texts(command, NOBODY)).toEqual([
        expect.stringMatching(/^You hold no Intune role assignment and no Microsoft Entra role that reads Intune data, so this app shows you no tenant data/),
      ]);
    }
    expect(await ask('show security posture', undefined)).toContain('Teams did not say who you are');
  });

  it('still answers help and the schedule, which show no tenant data', async () => {
    expect(await ask('help', NOBODY)).not.toContain('You hold no Intune role assignment');
    expect(await texts('show schedule', NOBODY)).toEqual([expect.stringMatching(/^Nothing is posted here on a schedule/)]);
  });
});

/** The text of a text answer. */
async function said(text: string, objectId: string | undefined, channel: string): Promise<string> {
  const answer = await reply(text, objectId, channel);
  if (!answer || !('text' in answer)) throw new Error(`"${text}" was not answered with text: ${JSON.stringify(answer)}`);
  return answer.text;
}

describe('posts for one scope tag', () => {
  it('reads the scope tag a schedule names, before its time', () => {
    dispatch ??= dispatchWithScope();
    for (const [text, tag] of [
      ['post new findings for scope tag Europe daily at 9:00', 'europe'],
      ['post new findings in scope tag North America weekly on monday', 'north america'],
      ['post new findings daily at 9:00', undefined],
    ] as const) {
      const reading = dispatch.read(text);
      expect(reading.command?.name, text).toBe('post new findings <when>');
      expect(reading.reading, text).toMatchObject({ kind: 'schedule-posts', scopeTag: tag ?? null });
    }
  });

  it('a regional administrator schedules their own scope tag only; the central one any, or the whole tenant', async () => {
    const { regional, central } = administrators();
    const channel = '19:europe@thread.tacv2';
    expect(await said('post new findings daily at 9:00', regional, channel)).toMatch(
      /^Your Intune role assignments let you see scope tag Europe, not the whole tenant, so a schedule you set must name one of your scope tags/,
    );
    expect(await said('post new findings for scope tag Americas daily at 9:00', regional, channel)).toBe('"americas" is not one of your scope tags; yours: Europe.');
    expect(await said('post new findings for scope tag Asia daily at 9:00', regional, channel)).toBe('"asia" is not one of your scope tags; yours: Europe.');
    expect(await said('post new findings for scope tag Europe daily at 9:00 UTC', regional, channel)).toMatch(
      /^From now on I post new findings in scope tag Europe here daily at 09:00 \(UTC\), starting Tue 24 Nov, 09:00\./,
    );
    const schedule = (await services.schedules!.read()).schedules.find((kept) => kept.channel === channel)!;
    expect(schedule.scopeTag).toEqual({ id: VIEWER_SCOPE_DEMO.tags.europe, name: 'Europe' });
    expect(schedule.reports).toEqual(['assignment-hygiene', 'security-posture', 'escrow-gaps', 'baseline-drift']);
    expect(await said('show schedule', regional, channel)).toMatch(/^New findings in scope tag Europe are posted here daily at 09:00 \(UTC\)/);

    // The central administrator sets the whole tenant's in another channel; the regional one may neither replace nor stop it.
    const tenantChannel = '19:central@thread.tacv2';
    expect(await said('post new findings daily at 9:00 UTC', central, tenantChannel)).toMatch(/^From now on I post new findings here daily/);
    expect(await said('post new findings for scope tag Asia daily at 9:00', central, tenantChannel)).toBe(
      '"asia" is not a scope tag of this tenant; its tags: Americas, Default, Europe.',
    );
    const notTheirs =
      "This conversation's schedule posts new findings, which is outside what your Intune role assignments let you see (scope tag Europe), so you cannot change or stop it.";
    expect(await said('stop posting', regional, tenantChannel)).toBe(notTheirs);
    expect(await said('post new findings for scope tag Europe weekly on friday', regional, tenantChannel)).toBe(notTheirs);
    expect((await services.schedules!.read()).schedules.find((kept) => kept.channel === tenantChannel)?.scopeTag).toBeUndefined();

    expect(await said('stop posting', regional, channel)).toMatch(/^Stopped: new findings in scope tag Europe are no longer posted here daily/);
    expect(await said('stop posting', central, tenantChannel)).toMatch(/^Stopped: new findings are no longer posted here daily/);
  });

  it('the post holds only the scope tag’s findings, and a finding outside it is neither posted nor resolved', async () => {
    const results = await services.reports.loadFresh(['security-posture']);
    const whole = results[0]!;
    const europe = services.viewerScopes!.view(whole, scopeOfTag({ id: VIEWER_SCOPE_DEMO.tags.europe, displayName: 'Europe' }));
    expect(europe.ok && europe.result.findings.length).toBe(2);
    const sent: AdaptiveCardJson[] = [];
    const target = { channel: '19:posts@thread.tacv2', name: 'Europe IT › General', send: async (card: AdaptiveCardJson) => void sent.push(card) };

    const first = await poster.post(target, ['security-posture'], { results, scope: scopeOfTag({ id: VIEWER_SCOPE_DEMO.tags.europe, displayName: 'Europe' }) });
    expect(first).toMatchObject({ status: 'posted', fresh: 2, resolved: 0 });
    const card = cardTexts(sent[0]);
    expect(card.runs[0]).toBe('2 new findings in Contoso (demo), scope tag Europe');
    const named = [...card.blocks, ...card.runs].join('\n');
    for (const name of ['ASR - Standard protection', 'Security baseline for Windows (23H2)']) expect(named).toContain(name);
    const others = whole.findings.filter((finding) => !['ASR - Standard protection', 'Security baseline for Windows (23H2)'].includes(finding.subjectName));
    expect(others.length).toBeGreaterThan(0);
    for (const finding of others) expect(named).not.toContain(finding.subjectName);

    // The channel's tag changes to Americas: Europe's findings are still in the tenant's load, so they are not resolved.
    const second = await poster.post(target, ['security-posture'], { results, scope: scopeOfTag({ id: VIEWER_SCOPE_DEMO.tags.americas, displayName: 'Americas' }) });
    expect(second.resolved).toBe(0);
    expect(cardTexts(sent.at(-1)).runs[0]).toMatch(/ in Contoso \(demo\), scope tag Americas$/);
    const ledger = await store.readLedger(target.channel);
    expect(ledger.entries.filter((entry) => entry.status === 'resolved')).toEqual([]);
  });
});

describe('"post new findings" asked now, with the viewer scope on', () => {
  /** The answer and every card the command sent into the channel. */
  async function askToPost(objectId: string, channel: string): Promise<{ answer: BotReply | null; cards: string[] }> {
    dispatch ??= dispatchWithScope();
    const cards: string[] = [];
    const capturing: Conversation = { ...conversation, send: async (reply) => void ('card' in reply && cards.push(JSON.stringify(cardTexts(reply.card)))) };
    const reading = dispatch.read('post new findings');
    const request: BotRequest = personalRequest(reading.text, reading.text, { id: '29:teams-user', objectId });
    request.conversation = { id: channel, kind: 'channel', name: 'Americas IT › General', channel, channelReference: { conversation: { id: channel } } };
    return { answer: await dispatch.answer(reading, request, capturing), cards };
  }

  it('in a channel set for Americas: the central administrator posts Americas’ findings only, the regional (Europe) one is refused and told why', async () => {
    const { regional, central } = administrators();
    const channel = '19:americas@thread.tacv2';
    expect(await said('post new findings for scope tag Americas daily at 9:00 UTC', central, channel)).toMatch(/^From now on I post new findings in scope tag Americas here/);

    const refused = await askToPost(regional, channel);
    expect(refused.cards).toEqual([]);
    expect(refused.answer).toEqual({
      text: expect.stringMatching(/^This conversation is kept to scope tag Americas, which is outside what your Intune role assignments let you see \(scope tag Europe\)/),
    });
    expect((await store.readLedger(channel)).entries).toEqual([]);

    const posted = await askToPost(central, channel);
    expect(posted.answer).toBeNull();
    expect(posted.cards).toHaveLength(1);
    expect(posted.cards[0]).toContain('in Contoso (demo), scope tag Americas');
    expect(posted.cards[0]).toContain(VIEWER_SCOPE_DEMO.americasPolicies[0]);
    for (const name of VIEWER_SCOPE_DEMO.europePolicies) expect(posted.cards[0]).not.toContain(name);
    // Report 4's devices carry their tags (read on beta for them): the Americas devices' gaps only.
    expect(posted.cards[0]).toContain('Windows LAPS & BitLocker Escrow Gaps');
    const devices = (posted.cards[0]!.match(/CONTOSO-\d{4}/g) ?? []).map((name) => Number(name.slice('CONTOSO-'.length)));
    expect(devices.length).toBeGreaterThan(0);
    const { europeDevices, americasDevices } = VIEWER_SCOPE_DEMO;
    expect(devices.filter((number) => number <= europeDevices || number > europeDevices + americasDevices)).toEqual([]);
    expect(await said('stop posting', central, channel)).toMatch(/^Stopped:/);
  });
});

describe('a channel kept to one scope tag: its audience decides, whoever asks', () => {
  const findingsOf = (lines: readonly string[]) => Number(/^(\d+) findings, worst first$/m.exec(lines.join('\n'))?.[1]);
  const cardText = async (text: string, objectId: string, channel?: string) => {
    const answer = await reply(text, objectId, channel);
    if (!answer || !('card' in answer)) throw new Error(`"${text}" was not answered with a card: ${JSON.stringify(answer)}`);
    const { blocks, runs } = cardTexts(answer.card);
    return [...blocks, ...runs].join('\n');
  };

  it('answers the central administrator in a Europe channel with Europe’s findings and devices only, and keeps the tag when the schedule stops', async () => {
    const { regional, central } = administrators();
    const channel = '19:europe-audience@thread.tacv2';
    expect(await said('post new findings for scope tag Europe daily at 9:00 UTC', regional, channel)).toMatch(/^From now on I post new findings in scope tag Europe here/);
    const europeOnly = async () => {
      // The report: as a viewer whose only tag is Europe sees it, not the asker's whole tenant.
      const inChannel = await texts('show escrow gaps', central, channel);
      const [whole] = await services.reports.loadFresh(['escrow-gaps']);
      const europe = services.viewerScopes!.view(whole!, scopeOfTag({ id: VIEWER_SCOPE_DEMO.tags.europe, displayName: 'Europe' }));
      if (!europe.ok) throw new Error(europe.explanation);
      expect(findingsOf(inChannel)).toBe(europe.result.findings.length);
      expect(inChannel.join('\n')).toContain('Showing what your Intune role assignments let you see: scope tag Europe');
      // "what applies" to an Americas device: refused in the words of a device that does not exist.
      const outside = await cardText(`what applies to ${VIEWER_SCOPE_DEMO.americasDevice}`, central, channel);
      expect(outside).toContain(`"${VIEWER_SCOPE_DEMO.americasDevice}" names no device your Intune role assignments let you see (scope tag Europe)`);
    };
    await europeOnly();
    // In a chat of their own, the central administrator is answered for the whole tenant.
    const [whole] = await services.reports.loadFresh(['escrow-gaps']);
    expect(findingsOf(await texts('show escrow gaps', central))).toBe(whole!.findings.length);
    expect(await cardText(`what applies to ${VIEWER_SCOPE_DEMO.americasDevice}`, central)).toContain(VIEWER_SCOPE_DEMO.americasPolicies[0]);

    // The regional administrator stops the schedule: the channel stays kept to Europe.
    expect(await said('stop posting', regional, channel)).toMatch(/This conversation stays kept to scope tag Europe/);
    const book = await services.schedules!.read();
    expect(book.schedules.find((kept) => kept.channel === channel)).toBeUndefined();
    expect(book.channelScopes).toContainEqual({ channel, scopeTag: { id: VIEWER_SCOPE_DEMO.tags.europe, name: 'Europe' } });
    await europeOnly();
  });

  it('with the viewer scope off, a channel’s kept tag changes no command’s answer, as before', async () => {
    const { regional } = administrators();
    const channel = '19:kept-while-off@thread.tacv2';
    expect(await said('post new findings for scope tag Europe daily at 9:00 UTC', regional, channel)).toMatch(/in scope tag Europe/);
    expect(await said('stop posting', regional, channel)).toMatch(/stays kept to scope tag Europe/);
    // The same services, the scope off: no asker's scope is read, and no conversation's tag narrows an answer.
    const { viewerScopes: _off, ...unscoped } = dispatchServices();
    const off = messageDispatch(unscoped, COMMANDS);
    const reading = off.read('show escrow gaps');
    const request: BotRequest = personalRequest(reading.text, reading.text, { id: '29:teams-user', objectId: regional });
    request.conversation = { id: channel, kind: 'channel', name: 'Europe IT › General', channel, channelReference: { conversation: { id: channel } } };
    const answer = await off.answer(reading, request, conversation);
    if (!answer || !('card' in answer)) throw new Error(`not a card: ${JSON.stringify(answer)}`);
    const lines = [...cardTexts(answer.card).blocks, ...cardTexts(answer.card).runs];
    const [whole] = await services.reports.loadFresh(['escrow-gaps']);
    expect(findingsOf(lines)).toBe(whole!.findings.length);
    expect(lines.join('\n')).not.toContain('Showing what your Intune role assignments let you see');
  });

  it('is changed only by someone who sees its tag or the whole tenant; an asker who does not is answered nothing of the tenant there', async () => {
    const { regional, central } = administrators();
    const channel = '19:rebound@thread.tacv2';
    expect(await said('post new findings for scope tag Europe daily at 9:00 UTC', regional, channel)).toMatch(/in scope tag Europe/);
    // The central administrator (the whole tenant) keeps it to Americas instead.
    expect(await said('post new findings for scope tag Americas daily at 9:00 UTC', central, channel)).toMatch(/in scope tag Americas/);
    const outside = /^This conversation is kept to scope tag Americas, which is outside what your Intune role assignments let you see \(scope tag Europe\)/;
    for (const text of ['show security posture', 'stop posting', 'post new findings for scope tag Europe daily at 9:00', `what applies to ${VIEWER_SCOPE_DEMO.europeDevice}`]) {
      expect(await said(text, regional, channel), text).toMatch(outside);
    }
    expect((await services.schedules!.read()).schedules.find((kept) => kept.channel === channel)?.scopeTag?.name).toBe('Americas');
    // A whole-tenant schedule, set by the central administrator, opens the channel to the whole tenant again.
    expect(await said('post new findings daily at 9:00 UTC', central, channel)).toMatch(/^From now on I post new findings here/);
    expect(channelTag(await services.schedules!.read(), channel)).toBeUndefined();
    expect(await said('stop posting', central, channel)).toMatch(/^Stopped:/);
  });
});

describe('a channel kept to one scope tag answers each asker only what their own roles read', () => {
  const deskHolder = () => [...harness.sim.tenant.groups.values()].find((group) => group.displayName === 'Intune Europe Service Desk')!.members[0]!.id;

  it('refuses the Europe service desk, whose role only reboots devices, reports 2, 3 and 4 and what applies in a Europe channel, as in a chat of its own', async () => {
    const { regional } = administrators();
    const channel = '19:europe-desk@thread.tacv2';
    expect(await said('post new findings for scope tag Europe daily at 9:00 UTC', regional, channel)).toMatch(/in scope tag Europe/);
    const desk = deskHolder();
    for (const [command, lacks] of [
      ['show assignment hygiene', 'Device configurations/Read, Device compliance policies/Read and Mobile apps/Read'],
      ['show security posture', 'Security baselines/Read'],
      ['show escrow gaps', 'Managed devices/Read'],
    ] as const) {
      for (const where of [channel, undefined]) {
        expect(await texts(command, desk, where), `${command} in ${where ?? 'a chat'}`).toEqual([
          expect.stringContaining(`None of your Intune role ${REBOOT_ONLY_ROLE.displayName} grants ${lacks}, so it is not shown to you (your scope: scope tag Europe).`),
        ]);
      }
    }
    const applies = JSON.stringify(await reply(`what applies to ${VIEWER_SCOPE_DEMO.europeDevice}`, desk, channel));
    expect(applies).toContain(APPLIES_NOT_READ_BY_ROLE);
    expect(applies).not.toContain(VIEWER_SCOPE_DEMO.europePolicies[0]);
    // The regional administrator, whose role reads them, is answered there with Europe's rows.
    expect((await texts('show escrow gaps', regional, channel)).join('\n')).toContain('Showing what your Intune role assignments let you see: scope tag Europe');
    expect(await said('stop posting', regional, channel)).toMatch(/^Stopped:/);
  });

  it('says a tenant-wide report is not said in a channel of one tag, even to an asker whose role reads it', async () => {
    const { regional, central } = administrators();
    const channel = '19:europe-analytics@thread.tacv2';
    expect(await said('post new findings for scope tag Europe daily at 9:00 UTC', regional, channel)).toMatch(/in scope tag Europe/);
    for (const asker of [regional, central]) {
      expect(await texts('show startup', asker, channel)).toEqual([
        'Startup Performance & App Reliability covers the whole tenant, and this conversation is kept to scope tag Europe, so it is not shown here, whoever asks: what is said here is kept to that tag. Ask me in a chat of your own.',
      ]);
    }
    // In a chat of their own, the regional administrator's Endpoint Analytics read shows it whole.
    expect((await texts('show startup', regional)).join('\n')).toContain('so it is shown whole');
    expect(await said('stop posting', regional, channel)).toMatch(/^Stopped:/);
  });

  it("keeps what the setter's roles read with a schedule of a tag, so its posts carry no report they may not see", async () => {
    const { regional, central } = administrators();
    const channel = '19:europe-reads@thread.tacv2';
    expect(await said('post new findings for scope tag Europe daily at 9:00 UTC', central, channel)).toMatch(/in scope tag Europe/);
    const kept = (await services.schedules!.read()).schedules.find((schedule) => schedule.channel === channel)!;
    // The central administrator's Read Only Operator reads every kind of object reports 2, 3 and 4 show.
    expect(kept.setterReads).toEqual(expect.arrayContaining(['deviceConfigurations', 'deviceCompliancePolicies', 'mobileApps', 'securityBaselines', 'managedDevices']));
    expect(scheduleReports(kept, services.registry)).toEqual(services.registry.scopeTagged);
    expect(await said('stop posting', regional, channel)).toMatch(/^Stopped:/);
  });
});

describe('"what applies" with the viewer scope on', () => {
  const cardOf = async (text: string, objectId: string) => {
    const answer = await reply(text, objectId);
    if (!answer || !('card' in answer)) throw new Error(`"${text}" was not answered with a card: ${JSON.stringify(answer)}`);
    const { blocks, runs } = cardTexts(answer.card);
    return [...blocks, ...runs].join('\n');
  };

  it('answers the central and the regional administrator about the same device, each in their scope', async () => {
    const { regional, central } = administrators();
    const question = `what applies to ${VIEWER_SCOPE_DEMO.europeDevice}`;
    const whole = await cardOf(question, central);
    const europe = await cardOf(question, regional);
    // The whole tenant's card counts every object (more than it lists by name); the Europe one lists the Europe policy that reaches the device.
    expect(whole).not.toContain('Showing what your Intune role assignments let you see');
    const counted = (card: string) => Number(/^(\d+) apply/m.exec(card)?.[1] ?? NaN);
    expect(counted(whole)).toBeGreaterThan(counted(europe));
    expect(europe).toContain(VIEWER_SCOPE_DEMO.europePolicies[0]);
    expect(europe).not.toContain(VIEWER_SCOPE_DEMO.americasPolicies[0]);
    expect(europe).not.toContain('Windows - Compliance');
    expect(europe).toMatch(/Showing what your Intune role assignments let you see \(scope tag Europe\)\. \d+ more assigned objects reach this device but are not shown/);
  });

  it('refuses the regional administrator a device outside their tags without saying whether it exists', async () => {
    const { regional } = administrators();
    const outside = await cardOf(`what applies to ${VIEWER_SCOPE_DEMO.americasDevice}`, regional);
    const missing = await cardOf('what applies to NO-SUCH-DEVICE', regional);
    expect(outside).toContain(`"${VIEWER_SCOPE_DEMO.americasDevice}" names no device your Intune role assignments let you see (scope tag Europe)`);
    expect(outside.replace(VIEWER_SCOPE_DEMO.americasDevice, '…')).toBe(missing.replace('NO-SUCH-DEVICE', '…'));
  });
});
