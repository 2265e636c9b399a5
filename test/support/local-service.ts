import { spawn } from 'node:child_process';
import type { ChildProcessWithoutNullStreams } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * Where freePort looks: below the kernel's ephemeral range. A port the kernel picked (`listen(0)`)
 * comes from that range, as does the source port of every outgoing connection, so between freePort
 * closing such a port and a service binding it, any test's connection to loopback could take it
 * (Azurite once failed with EADDRINUSE so). Below the range only a port named outright is bound.
 * Each test worker (VITEST_POOL_ID, 1 to maxWorkers) takes ports from a slice of its own, so two
 * workers never pick the same one; within a test file's process it never hands out a port twice. It starts
 * at a random place in the slice, so that two runs of the suite side by side seldom meet.
 */
const PORT_SLICE = 1_000;
const FIRST_PORT = 20_000;
const poolSlice = Number(process.env.VITEST_POOL_ID ?? 0) || (process.pid % 8) + 1;
const firstInSlice = Math.floor(Math.random() * PORT_SLICE);
let portsTried = 0;

/** The lowest port of the kernel's ephemeral range (Linux reads it from /proc; 49152 is the IANA and macOS/Windows default). */
function ephemeralLow(): number {
  try {
    return Number(readFileSync('/proc/sys/net/ipv4/ip_local_port_range', 'utf8').trim().split(/\s+/)[0]) || 49_152;
  } catch {
    return 49_152;
  }
}

function canListen(port: number): Promise<number | undefined> {
  const server = createServer();
  return new Promise((resolve) => {
    server.once('error', () => resolve(undefined));
    server.listen(port, '127.0.0.1', () => {
      const bound = (server.address() as AddressInfo).port;
      server.close(() => resolve(bound));
    });
  });
}

/** A loopback port nothing listens on right now, which no connection will take meanwhile (above). */
export async function freePort(): Promise<number> {
  const sliceStart = FIRST_PORT + (poolSlice - 1) * PORT_SLICE;
  // A kernel whose ephemeral range reaches this low leaves no port outside it: take one of its own.
  if (sliceStart + PORT_SLICE > ephemeralLow()) return (await canListen(0))!;
  while (portsTried < PORT_SLICE) {
    const port = await canListen(sliceStart + ((firstInSlice + portsTried++) % PORT_SLICE));
    if (port !== undefined) return port;
  }
  throw new Error(`freePort: all ${PORT_SLICE} ports from ${sliceStart} used or taken in this worker`);
}

export interface LocalService {
  child: ChildProcessWithoutNullStreams;
  /** Where it tried to connect beyond loopback (refused by loopback-guard.cjs), as host:port. */
  connectionsRefused(): string[];
  /** Everything the service has printed so far, stdout and stderr together. */
  output(): string;
  /**
   * Runs `operation` against the service. If the service exits first or meanwhile, or the operation
   * fails and the service exits soon after (a reset connection is often its last word), the error
   * says so with the service's own output rather than with the connection's symptom.
   */
  whileRunning<T>(operation: Promise<T>): Promise<T>;
  stop(): Promise<void>;
}

/** How long a failed operation waits to see whether the service is exiting, to say why. */
const EXIT_GRACE_MS = 1_000;

const LOOPBACK_GUARD = join(dirname(fileURLToPath(import.meta.url)), 'loopback-guard.cjs');

/**
 * Runs a Node program of a package (Azurite, the Agents Playground) as a child of this process
 * itself, not through an npx wrapper, so that stopping it frees its ports; resolves once its output
 * says it is ready, within 20 s. The program can reach loopback alone (loopback-guard.cjs); stopping
 * it fails if it tried anything else, so no test sends a packet off this machine unnoticed.
 */
export async function startLocalService(name: string, args: string[], ready: RegExp, options: { cwd?: string; env?: Record<string, string> } = {}): Promise<LocalService> {
  const guardLog = join(mkdtempSync(join(tmpdir(), 'dmhealth-loopback-guard-')), 'refused.log');
  const child = spawn(process.execPath, ['--require', LOOPBACK_GUARD, ...args], {
    stdio: ['pipe', 'pipe', 'pipe'],
    env: { ...process.env, ...options.env, LOOPBACK_GUARD_LOG: guardLog },
    ...(options.cwd ? { cwd: options.cwd } : {}),
  });
  const connectionsRefused = () => (existsSync(guardLog) ? readFileSync(guardLog, 'utf8').split('\n').filter(Boolean) : []);
  child.stdin.end();
  let output = '';
  const onData = (chunk: Buffer) => {
    output += chunk.toString();
  };
  child.stdout.on('data', onData);
  child.stderr.on('data', onData);
  // 'close' comes after the last output, so the message holds all of it.
  const exited = new Promise<string>((resolve) => child.once('close', (code, signal) => resolve(`${name} exited (${signal ?? code}):\n${output}`)));
  const started = new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`${name} did not start within 60 s:\n${output}`));
      // A bound for a machine the rest of the suite keeps busy, not a measure of start-up time.
    }, 60_000);
    const onReady = () => {
      if (!ready.test(output)) return;
      clearTimeout(timer);
      child.stdout.off('data', onReady);
      child.stderr.off('data', onReady);
      resolve();
    };
    child.stdout.on('data', onReady);
    child.stderr.on('data', onReady);
    void exited.then((why) => {
      clearTimeout(timer);
      reject(new Error(why));
    });
  });
  await started.catch((error: unknown) => {
    rmSync(dirname(guardLog), { recursive: true, force: true });
    throw error;
  });
  const hasExited = () => child.exitCode !== null || child.signalCode !== null;
  return {
    child,
    output: () => output,
    connectionsRefused,
    async whileRunning(operation) {
      const stopped = exited.then((why) => Promise.reject(new Error(why)));
      stopped.catch(() => undefined);
      try {
        return await Promise.race([operation, stopped]);
      } catch (error) {
        if (hasExited()) throw new Error(await exited, { cause: error });
        await Promise.race([exited, new Promise((resolve) => setTimeout(resolve, EXIT_GRACE_MS))]);
        if (hasExited()) throw new Error(await exited, { cause: error });
        throw error;
      }
    },
    async stop() {
      if (!hasExited()) {
        child.kill('SIGTERM');
        await Promise.race([exited, new Promise((resolve) => setTimeout(resolve, 5_000))]);
        if (!hasExited()) child.kill('SIGKILL');
      }
      const refused = connectionsRefused();
      rmSync(dirname(guardLog), { recursive: true, force: true });
      if (refused.length > 0) throw new Error(`${name} tried to connect beyond loopback: ${[...new Set(refused)].join(', ')}`);
    },
  };
}
