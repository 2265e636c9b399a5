import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';

const REPO_ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..');

/** The folder table of eslint.config.js, run on one import as if it were in the file at `filePath`. */
async function refusedImports(filePath: string, source: string): Promise<string[]> {
  const eslint = new ESLint({ cwd: REPO_ROOT });
  const [result] = await eslint.lintText(`${source}\nexport {};\n`, { filePath: `${REPO_ROOT}/${filePath}` });
  return (result?.messages ?? []).filter((message) => message.ruleId === 'layers/folder-imports').map((message) => message.message);
}

describe('the folder table that lint keeps, every row of it', () => {
  it.each([
    // The core: pure and browser-safe.
    ['src/core/reports/new-report.ts', "import { createAppServer } from '../../server/app-server.js';"],
    ['src/core/reports/new-report.ts', "import { TeamsBot } from '../../bot/teams-bot.js';"],
    ['src/core/reports/new-report.ts', "import { startSimulator } from '../../sim/simulator.js';"],
    ['src/core/reports/new-report.ts', "import { createServices } from '../../app/create-services.js';"],
    ['src/core/reports/new-report.ts', "import { GraphClient } from '../../graph/graph-client.js';"],
    ['src/core/reports/new-report.ts', "import { FileStateStore } from '../../store/file-state-store.js';"],
    ['src/core/reports/new-report.ts', "import React from 'react';"],
    ['src/core/reports/new-report.ts', "import { readFileSync } from 'node:fs';"],
    ['src/core/reports/new-report.ts', "import { createHash } from 'crypto';"],
    ['src/core/reports/new-report.ts', "import { request } from 'undici';"],
    ['src/core/reports/new-report.ts', "import { ConfidentialClientApplication } from '@azure/msal-node';"],
    ['src/core/reports/new-report.ts', "import { BlobServiceClient } from '@azure/storage-blob';"],
    ['src/core/reports/new-report.ts', "import { CloudAdapter } from 'botbuilder';"],
    ['src/core/reports/new-report.ts', "import restify from 'restify';"],
    ['src/core/graph/new-port.ts', "import { loadReport } from '../reports/registry.js';"],
    ['src/core/graph/new-port.ts', "import { GroupResolver } from '../directory/group-lookup.js';"],
    ['src/core/findings/new-kind.ts', "import type { ReportResult } from '../reports/report-model.js';"],
    ['src/core/findings/new-kind.ts', "import { TeamsBot } from '../../bot/teams-bot.js';"],
    // The Graph client and the stores, below the application floor.
    ['src/graph/new-client.ts', "import restify from 'restify';"],
    ['src/graph/new-client.ts', "import { loadReport } from '../core/reports/registry.js';"],
    ['src/graph/new-client.ts', "import { createServices } from '../app/create-services.js';"],
    ['src/store/new-store.ts', "import { GraphClient } from '../graph/graph-client.js';"],
    ['src/app/new-service.ts', "import { startSimulator } from '../sim/simulator.js';"],
    ['src/app/new-service.ts', "import { createAppServer } from '../server/app-server.js';"],
    ['src/app/new-service.ts', "import { TeamsBot } from '../bot/teams-bot.js';"],
    // The front ends: through the application floor, never into each other or the simulator.
    ['src/bot/new-command.ts', "import { EncodedReports } from '../server/report-encoding.js';"],
    ['src/bot/new-command.ts', "import { startSimulator } from '../sim/simulator.js';"],
    ['src/bot/adapter/new-adapter.ts', "import { EncodedReports } from '../../server/report-encoding.js';"],
    ['src/bot/new-part.ts', "import { CloudAdapter } from 'botbuilder';"],
    ['src/bot/commands/new-command.ts', "import { TurnContext } from 'botbuilder';"],
    ['src/bot/commands/new-command.ts', "import type { Activity } from 'botframework-schema';"],
    ['src/bot/cards/new-card.ts', "import { CardFactory } from 'botbuilder-core';"],
    ['src/bot/teams-bot.ts', "import { BotBuilderCloudAdapter } from '@microsoft/teamsfx';"],
    ['src/bot/commands/new-command.ts', "import { TeamsAdapter } from '../adapter/teams-adapter.js';"],
    ['src/bot/cards/new-card.ts', "import { TeamsBot } from '../teams-bot.js';"],
    ['src/cli/new-command.ts', "import { assembleApp } from '../server/app-assembly.js';"],
    ['src/cli/new-command.ts', "import { startSimulator } from '../sim/simulator.js';"],
    ['src/cli/new-command.ts', "import { TeamsBot } from '../bot/teams-bot.js';"],
    ['src/server/new-route.ts', "import { startSimulator } from '../sim/simulator.js';"],
    ['src/sim/new-resource.ts', "import { createServices } from '../app/create-services.js';"],
    // The two doors to the simulator are doors to it alone.
    ['src/server/demo-switches.ts', "import React from 'react';"],
    ['src/cli/simulated-tenant.ts', "import { assembleApp } from '../server/app-assembly.js';"],
    ['src/server/new-route.ts', "import { CloudAdapter } from 'botbuilder';"],
    // Every way of naming a module counts.
    ['src/cli/new-command.ts', "export { assembleApp } from '../server/app-assembly.js';"],
    ['src/cli/new-command.ts', "export * from '../server/app-assembly.js';"],
    ['src/cli/new-command.ts', "export type { AppAssemblyOptions } from '../server/app-assembly.js';"],
    ['src/cli/new-command.ts', "const assembly = await import('../server/app-assembly.js');"],
    ['src/cli/new-command.ts', 'const assembly = await import(`../server/app-assembly.js`);'],
    ['src/cli/new-command.ts', "type Assembly = import('../server/app-assembly.js').AssembledApp;"],
    ['src/cli/new-command.ts', "import assembly = require('../server/app-assembly.js');"],
    // The core takes only the packages it is allowed, and nothing by a path out of src/.
    ['src/core/reports/new-report.ts', "import { pino } from 'pino';"],
    ['src/core/reports/new-report.ts', "import { request } from '../../../node_modules/undici/index.js';"],
    // A folder the table does not know.
    ['src/reports-next/new-part.ts', "import { findingKind } from '../core/findings/finding-kinds.js';"],
    // The tab: a browser bundle.
    ['src/tab/app/NewView.tsx', "import { GraphClient } from '../../graph/graph-client.js';"],
    ['src/tab/app/NewView.tsx', "import { loadReport } from '../../core/reports/registry.js';"],
    ['src/tab/app/NewView.tsx', "import { TriageRecords } from '../../app/triage-records.js';"],
    ['src/tab/app/NewView.tsx', "import { createAppServer } from '../../server/app-server.js';"],
    ['src/tab/app/NewView.tsx', "import { readFileSync } from 'node:fs';"],
  ])('refuses, in %s: %s', async (filePath, source) => {
    expect(await refusedImports(filePath, source)).toHaveLength(1);
  });

  it.each([
    ['src/tab/app/NewView.tsx', "import type { ReportResult } from '../../core/reports/report-model.js';"],
    ['src/tab/app/NewView.tsx', "import { reportToCsv } from '../../core/reports/report-csv.js';"],
    ['src/tab/app/NewView.tsx', "import type { ReportSummary } from '../../core/reports/report-summary.js';"],
    ['src/tab/app/NewView.tsx', "import { findingKind } from '../../core/findings/finding-kinds.js';"],
    ['src/tab/app/NewView.tsx', "import { splitByTriage } from '../../core/triage/triage-book.js';"],
    ['src/tab/app/NewView.tsx', "import { ReportWindows } from '../../core/reports/window/report-window.js';"],
    ['src/server/new-route.ts', "import { TeamsBot } from '../bot/teams-bot.js';"],
    ['src/server/new-route.ts', "import { createServices } from '../app/create-services.js';"],
    ['src/server/demo-switches.ts', "import { startSimulator } from '../sim/simulator.js';"],
    ['src/cli/simulated-tenant.ts', "import { startSimulator } from '../sim/simulator.js';"],
    ['src/cli/new-command.ts', "import { createServices } from '../app/create-services.js';"],
    ['src/bot/new-command.ts', "import type { ReportService } from '../app/report-service.js';"],
    ['src/bot/adapter/new-adapter.ts', "import { CloudAdapter } from 'botbuilder';"],
    ['src/bot/adapter/new-adapter.ts', "import { BotBuilderCloudAdapter } from '@microsoft/teamsfx';"],
    ['src/bot/adapter/new-adapter.ts', "import type { BotRequest } from '../commands/command.js';"],
    ['src/bot/commands/new-command.ts', "import { reportCard } from '../cards/report-card.js';"],
    ['src/bot/new-part.ts', "import { TeamsAdapter } from './adapter/teams-adapter.js';"],
    ['src/bot/new-command.ts', "import { findingKind } from '../core/findings/finding-kinds.js';"],
    ['src/app/new-service.ts', "import { GraphClient } from '../graph/graph-client.js';"],
    ['src/app/new-service.ts', "import { readFileSync } from 'node:fs';"],
    ['src/graph/new-client.ts', "import { GraphError } from '../core/graph/graph-error.js';"],
    ['src/core/reports/new-report.ts', "import type { GraphReader } from '../graph/graph-reader.js';"],
    ['src/core/reports/new-report.ts', "import { findingKind } from '../findings/finding-kinds.js';"],
    ['src/core/graph/new-port.ts', "import { GraphError } from './graph-error.js';"],
    ['src/sim/new-resource.ts', "import type { ReportId } from '../core/reports/report-model.js';"],
    ['src/core/findings/new-kind.ts', "import { sha256 } from '@noble/hashes/sha2.js';"],
    ['src/core/reports/new-report.ts', "import type * as Beta from '@microsoft/microsoft-graph-types-beta';"],
    ['src/cli/simulated-tenant.ts', "import { REPORTS } from '../core/reports/registry.js';"],
  ])('allows, in %s: %s', async (filePath, source) => {
    expect(await refusedImports(filePath, source)).toEqual([]);
  });

  it('names the row and why it refuses', async () => {
    expect(await refusedImports('src/cli/new-command.ts', "import { assembleApp } from '../server/app-assembly.js';")).toEqual([
      expect.stringMatching(/^src\/cli may not import src\/server\/app-assembly\.js: the command line works through the application floor/),
    ]);
  });
});
