import { spawn } from 'node:child_process';
import type { ChildProcessByStdio } from 'node:child_process';
import type { Readable } from 'node:stream';

/**
 * The processes a bench starts (the simulator, the server, Azurite), each waited for until it says
 * it is ready, and all stopped at the end, last started first.
 */
export interface Started {
  process: ChildProcessByStdio<null, Readable, Readable>;
  /** What it has written so far, both streams together. */
  output: () => string;
}

/** How long a process may take to say it is ready. */
const START_WITHIN_MS = 180_000;

export class ChildProcesses {
  private readonly started: Started[] = [];

  /** A process of its own, its output kept, waited for until `ready` shows in it (bounded). */
  async start(args: string[], env: NodeJS.ProcessEnv, ready: RegExp, cwd?: string): Promise<Started> {
    const child = spawn(process.execPath, args, { env, stdio: ['ignore', 'pipe', 'pipe'], ...(cwd ? { cwd } : {}) });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
    const entry = { process: child, output: () => output };
    this.started.push(entry);
    const deadline = Date.now() + START_WITHIN_MS;
    while (!ready.test(output)) {
      if (Date.now() > deadline || child.exitCode !== null) throw new Error(`${args.join(' ')} did not start:\n${output}`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    return entry;
  }

  /** A process started some other way, stopped with the others. */
  adopt(entry: Started): void {
    this.started.push(entry);
  }

  /** Every process started, last first. */
  async stopAll(): Promise<void> {
    for (const entry of this.started.splice(0).reverse()) await stop(entry);
  }
}

export async function stop({ process: child }: Started): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGTERM');
  await exited;
}

/** The value below which `p` percent of `list` lie (nearest rank). */
export const percentile = (list: number[], p: number) => [...list].sort((a, b) => a - b)[Math.min(list.length - 1, Math.floor((p / 100) * list.length))] ?? 0;
/** Milliseconds, whole, with thousands separated. */
export const ms = (value: number) => Math.round(value).toLocaleString('en-US');
