import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';

const REPO_ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..');

/** The layer rules of eslint.config.js, run on one import as if it were in the file at `filePath`. */
async function restrictedImports(filePath: string, source: string): Promise<string[]> {
  const eslint = new ESLint({ cwd: REPO_ROOT });
  const [result] = await eslint.lintText(`${source}\nexport {};\n`, { filePath: `${REPO_ROOT}/${filePath}` });
  return (result?.messages ?? []).filter((message) => message.ruleId === 'no-restricted-imports').map((message) => message.message);
}

describe('layers that lint keeps', () => {
  it.each([
    ['src/core/reports/new-report.ts', "import { createAppServer } from '../../server/app-server.js';"],
    ['src/core/reports/new-report.ts', "import { TeamsBot } from '../../bot/teams-bot.js';"],
    ['src/core/reports/new-report.ts', "import { startSimulator } from '../../sim/simulator.js';"],
    ['src/core/reports/new-report.ts', "import React from 'react';"],
    ['src/core/graph/new-client.ts', "import restify from 'restify';"],
    ['src/core/graph/new-client.ts', "import { CloudAdapter } from 'botbuilder';"],
    ['src/core/graph/new-client.ts', "import { loadReport } from '../reports/registry.js';"],
    ['src/core/graph/new-client.ts', "import { GroupResolver } from '../directory/group-lookup.js';"],
    ['src/bot/new-command.ts', "import { ReportCache } from '../server/report-cache.js';"],
    ['src/bot/adapter/new-adapter.ts', "import { ReportCache } from '../../server/report-cache.js';"],
    ['src/bot/new-part.ts', "import { CloudAdapter } from 'botbuilder';"],
    ['src/bot/commands/new-command.ts', "import { TurnContext } from 'botbuilder';"],
    ['src/bot/commands/new-command.ts', "import type { Activity } from 'botframework-schema';"],
    ['src/bot/cards/new-card.ts', "import { CardFactory } from 'botbuilder-core';"],
    ['src/bot/teams-bot.ts', "import { BotBuilderCloudAdapter } from '@microsoft/teamsfx';"],
    ['src/bot/commands/new-command.ts', "import { TeamsAdapter } from '../adapter/teams-adapter.js';"],
    ['src/bot/cards/new-card.ts', "import { TeamsBot } from '../teams-bot.js';"],
    ['src/core/findings/new-kind.ts', "import type { ReportResult } from '../reports/report-model.js';"],
    ['src/core/findings/new-kind.ts', "import { TeamsBot } from '../../bot/teams-bot.js';"],
    ['src/tab/app/NewView.tsx', "import { GraphClient } from '../../core/graph/graph-client.js';"],
    ['src/tab/app/NewView.tsx', "import { loadReport } from '../../core/reports/registry.js';"],
    ['src/tab/app/NewView.tsx', "import { TriageRecords } from '../../core/triage/triage-records.js';"],
    ['src/tab/app/NewView.tsx', "import { createAppServer } from '../../server/app-server.js';"],
  ])('refuses, in %s: %s', async (filePath, source) => {
    expect(await restrictedImports(filePath, source)).toHaveLength(1);
  });

  it.each([
    ['src/tab/app/NewView.tsx', "import type { ReportResult } from '../../core/reports/report-model.js';"],
    ['src/tab/app/NewView.tsx', "import { reportToCsv } from '../../core/reports/report-csv.js';"],
    ['src/tab/app/NewView.tsx', "import type { ReportSummary } from '../../core/reports/report-summary.js';"],
    ['src/tab/app/NewView.tsx', "import { findingKind } from '../../core/findings/finding-kinds.js';"],
    ['src/tab/app/NewView.tsx', "import { splitByTriage } from '../../core/triage/triage-book.js';"],
    ['src/server/new-route.ts', "import { TeamsBot } from '../bot/teams-bot.js';"],
    ['src/bot/new-command.ts', "import { loadReport } from '../core/reports/registry.js';"],
    ['src/bot/adapter/new-adapter.ts', "import { CloudAdapter } from 'botbuilder';"],
    ['src/bot/adapter/new-adapter.ts', "import { BotBuilderCloudAdapter } from '@microsoft/teamsfx';"],
    ['src/bot/adapter/new-adapter.ts', "import type { BotRequest } from '../commands/command.js';"],
    ['src/bot/commands/new-command.ts', "import { reportCard } from '../cards/report-card.js';"],
    ['src/bot/new-part.ts', "import { TeamsAdapter } from './adapter/teams-adapter.js';"],
    ['src/core/reports/new-report.ts', "import type { GraphReader } from '../graph/graph-reader.js';"],
    ['src/core/graph/new-client.ts', "import { GraphError } from './graph-error.js';"],
    ['src/core/reports/new-report.ts', "import { findingKind } from '../findings/finding-kinds.js';"],
  ])('allows, in %s: %s', async (filePath, source) => {
    expect(await restrictedImports(filePath, source)).toEqual([]);
  });
});
