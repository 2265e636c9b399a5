import { describe, expect, it } from 'vitest';
import { createServices } from '../../src/app/create-services.js';
import type { BotServices } from '../../src/bot/bot-services.js';
import type { BotReply, Conversation } from '../../src/bot/commands/command.js';
import { COMMANDS } from '../../src/bot/commands/index.js';
import { messageDispatch } from '../../src/bot/message-dispatch.js';
import { createTabLinks } from '../../src/bot/tab-links.js';
import { emptyScheduleBook } from '../../src/core/schedule/post-schedule.js';
import { VIEWER_SCOPE_DEMO } from '../../src/core/viewer-scope/demo.js';
import { buildDemoTenant } from '../../src/sim/tenants/demo-tenant.js';
import { showVersion } from '../fixtures/show-version-command.js';
import { personalRequest } from '../support/bot-request.js';
import { cardTexts } from '../support/card-texts.js';
import { simulatorConnection, useTestSimulator } from '../support/simulated-tenant.js';

const harness = useTestSimulator({ tenant: buildDemoTenant() });

const conversation: Conversation = { typing: async () => undefined, send: async () => undefined, followUp: async () => undefined };

/**
 * The bot's dispatch over the application floor as the server has it with the viewer scope on:
 * reports loaded from the demo tenant once for everyone, each asker's scope from its role
 * assignments. The fixture's command is one that has not said how it keeps to a scope.
 */
function dispatchWithScope() {
  const services = createServices({ connection: simulatorConnection(harness.sim, harness.client()), viewerScope: true, log: () => undefined });
  const bot = {
    reports: services.reports,
    registry: services.registry,
    schedules: { read: async () => emptyScheduleBook() },
    tenantLabel: 'Contoso (demo)',
    tabLinks: createTabLinks({ tabUrl: 'http://127.0.0.1:3978/tab/' }),
    tabUrl: 'http://127.0.0.1:3978/tab/',
    followUpAfterMs: 60_000,
    now: () => new Date('2026-11-23T10:00:00Z'),
    log: () => undefined,
    viewerScopes: services.viewerScopes,
  } as unknown as BotServices;
  return messageDispatch(bot, [...COMMANDS, showVersion]);
}

let dispatch: ReturnType<typeof dispatchWithScope> | undefined;

async function reply(text: string, objectId: string | undefined): Promise<BotReply | null> {
  dispatch ??= dispatchWithScope();
  const reading = dispatch.read(text);
  return dispatch.answer(reading, personalRequest(reading.text, reading.text, { id: '29:teams-user', objectId }), conversation);
}

async function ask(text: string, objectId: string | undefined): Promise<string> {
  return JSON.stringify(await reply(text, objectId));
}

/** Every text of a card answer; a text answer's text. */
async function texts(text: string, objectId: string | undefined): Promise<string[]> {
  const answer = await reply(text, objectId);
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

  it('answers a regional asker who asks for a tenant-wide report (escrow gaps) with why it is not theirs, and the central one with the report', async () => {
    const regional = await texts('show escrow gaps', administrators().regional);
    expect(regional).toHaveLength(1);
    expect(regional[0]).toMatch(/^Windows LAPS & BitLocker Escrow Gaps covers the whole tenant: its objects carry no scope tags, .* Yours show scope tag Europe\.$/);
    expect(await reply('show escrow gaps', administrators().central)).toHaveProperty('card');
  });

  it('the overview: the regional asker’s scope named, their report counted in it, each tenant-wide report said to be outside it', async () => {
    const answer = await reply('show overview', administrators().regional);
    const card = JSON.stringify(answer);
    expect(card).toContain('Contoso (demo) · scope tag Europe');
    const all = cardTexts((answer as { card: unknown }).card);
    expect(all.blocks.filter((text) => text === 'Not in your scope')).toHaveLength(5);
    expect(all.blocks).toContain('2 open findings, worst Medium');
    expect(all.runs.filter((text) => /covers the whole tenant: its objects carry no scope tags/.test(text))).toHaveLength(5);
    expect(JSON.stringify(await reply('show overview', administrators().central))).not.toContain('Not in your scope');
  });

  it('a command that cannot yet keep to a scope answers the whole-tenant asker only, and tells the regional one which commands do', async () => {
    expect(await ask('show version', administrators().central)).toContain('version 0.0.0');
    const regional = await ask('show version', administrators().regional);
    expect(regional).not.toContain('version 0.0.0');
    expect(regional).toContain('(yours: scope tag Europe), and \\"show version\\" cannot yet keep to a scope');
  });

  it('tells an asker with no Intune role assignment why, whatever they ask, and one Teams did not name that it cannot tell who they are', async () => {
    for (const command of ['show version', 'show security posture', 'show overview']) {
      expect(await texts(command, NOBODY)).toEqual([expect.stringMatching(/^You hold no Intune role assignment, so this app shows you no tenant data/)]);
    }
    expect(await ask('show security posture', undefined)).toContain('Teams did not say who you are');
  });

  it('still answers help and the schedule, which show no tenant data', async () => {
    expect(await ask('help', NOBODY)).not.toContain('You hold no Intune role assignment');
    expect(await texts('show schedule', NOBODY)).toEqual([expect.stringMatching(/^Nothing is posted here on a schedule/)]);
  });
});
