import { describe, expect, it } from 'vitest';
import { ReportCache } from '../../src/app/report-cache.js';
import { ViewerScopes } from '../../src/app/viewer-scopes.js';
import type { BotServices } from '../../src/bot/bot-services.js';
import type { Conversation } from '../../src/bot/commands/command.js';
import { COMMANDS } from '../../src/bot/commands/index.js';
import { messageDispatch } from '../../src/bot/message-dispatch.js';
import { REPORTS } from '../../src/core/reports/registry.js';
import { emptyScheduleBook } from '../../src/core/schedule/post-schedule.js';
import { buildDemoTenant } from '../../src/sim/tenants/demo-tenant.js';
import { showVersion } from '../fixtures/show-version-command.js';
import { personalRequest } from '../support/bot-request.js';
import { useTestSimulator } from '../support/simulated-tenant.js';

const harness = useTestSimulator({ tenant: buildDemoTenant() });

const conversation: Conversation = { typing: async () => undefined, send: async () => undefined, followUp: async () => undefined };

/** The bot's dispatch with the viewer scope on, reading the demo tenant's role assignments; the fixture's command shows it answering. */
function dispatchWithScope() {
  const cache = new ReportCache(async () => {
    throw new Error('no report is loaded here');
  }, 60_000);
  const services = {
    registry: REPORTS,
    schedules: { read: async () => emptyScheduleBook() },
    tenantLabel: 'Contoso (demo)',
    tabUrl: 'http://127.0.0.1:3978/tab/',
    now: () => new Date('2026-11-23T10:00:00Z'),
    log: () => undefined,
    viewerScopes: new ViewerScopes({ graph: harness.client(), cache, log: () => undefined }),
  } as unknown as BotServices;
  return messageDispatch(services, [...COMMANDS, showVersion]);
}

async function ask(text: string, objectId: string | undefined): Promise<string> {
  const dispatch = dispatchWithScope();
  const reading = dispatch.read(text);
  return JSON.stringify(await dispatch.answer(reading, personalRequest(reading.text, reading.text, { id: '29:teams-user', objectId }), conversation));
}

describe('the bot with the viewer scope on', () => {
  it('answers a whole-tenant asker as before', async () => {
    expect(await ask('show version', harness.sim.tenant.demoAdministrators!.central)).toContain('version 0.0.0');
  });

  it('tells an asker limited to scope tags it cannot yet answer within them, rather than show the whole tenant', async () => {
    const reply = await ask('show version', harness.sim.tenant.demoAdministrators!.regional);
    expect(reply).not.toContain('version 0.0.0');
    expect(reply).toContain('cannot yet answer within yours (scope tags)');
  });

  it('tells an asker with no Intune role assignment why, and one Teams did not name that it cannot tell who they are', async () => {
    expect(await ask('show version', '00000000-0000-4000-8000-000000000009')).toContain('You hold no Intune role assignment');
    expect(await ask('show version', undefined)).toContain('Teams did not say who you are');
  });

  it('still answers help, which shows no tenant data', async () => {
    expect(await ask('help', '00000000-0000-4000-8000-000000000009')).not.toContain('You hold no Intune role assignment');
  });
});
