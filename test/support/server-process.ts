import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { freePort } from './local-service.js';

/** The built server, as `npm start` runs it. */
export const SERVER_MAIN = 'dist/server/main.js';

export interface ServerProcess {
  /** e.g. http://127.0.0.1:41234 */
  base: string;
  /** All it printed so far, standard output and error together. */
  output: () => string;
  stop: () => Promise<void>;
}

/**
 * The environment minus anything that would point the server at a tenant or a bot registration,
 * listening on `port`, with its state in `stateFolder`.
 */
export function demoEnv(port: number, stateFolder: string): NodeJS.ProcessEnv {
  const env = { ...process.env };
  for (const name of Object.keys(env)) if (/^(M365_|GRAPH_BASE_URL|NODE_EXTRA_CA_CERTS|BOT_|NOTIFY_)/.test(name)) delete env[name];
  return { ...env, PORT: String(port), STATE_STORE: `file:${stateFolder}` };
}

/**
 * `npm start` with `args`, as its own process, once it listens (within `waitMs`): its address, what
 * it printed, and a way to stop it.
 */
export async function startServerProcess(args: string[], options: { stateFolder: string; waitMs: number }): Promise<ServerProcess> {
  const port = await freePort();
  const server = spawn(process.execPath, [SERVER_MAIN, ...args], { env: demoEnv(port, options.stateFolder), stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  server.stdout.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
  server.stderr.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
  const stop = async () => {
    if (server.exitCode !== null) return;
    server.kill('SIGTERM');
    await new Promise((resolve) => server.once('exit', resolve));
  };
  try {
    await listening(server, () => output, options.waitMs);
  } catch (error) {
    await stop();
    throw error;
  }
  return { base: `http://127.0.0.1:${port}`, output: () => output, stop };
}

/** Resolves once the process has said it listens; rejects if it exits first or `waitMs` passes. */
function listening(server: ChildProcess, output: () => string, waitMs: number): Promise<void> {
  return new Promise((resolve, reject) => {
    const done = (error?: Error) => {
      clearTimeout(timer);
      server.stdout?.off('data', check);
      server.off('exit', exited);
      if (error) reject(error);
      else resolve();
    };
    const check = () => {
      if (output().includes('Listening on')) done();
    };
    const exited = () => done(new Error(`the server exited before it listened:\n${output()}`));
    const timer = setTimeout(() => done(new Error(`the server did not listen within ${waitMs} ms:\n${output()}`)), waitMs);
    // After the output's own listener, which is added first, so `output()` holds the chunk.
    server.stdout?.on('data', check);
    server.once('exit', exited);
    check();
  });
}
