import { vi } from 'vitest';
import { runCli } from '../../src/cli/cli-commands.js';

/**
 * `dmhealth` run in the test's own process, as the command runs it (`runCli`), with what it prints
 * caught: each `console.log` and each write to standard output a line of `stdout`, the same for
 * standard error. For what needs no process of its own: an answer given before any tenant is read,
 * or a registry made in the test. Whatever it writes is restored when it ends.
 */
export async function runCliInProcess(...args: Parameters<typeof runCli>): Promise<{ code: number; stdout: string; stderr: string }> {
  const stdout: string[] = [];
  const stderr: string[] = [];
  const caught: Array<{ mockRestore(): void }> = [
    vi.spyOn(console, 'log').mockImplementation((...parts: unknown[]) => void stdout.push(parts.join(' '))),
    vi.spyOn(process.stdout, 'write').mockImplementation((chunk: string | Uint8Array) => (stdout.push(String(chunk)), true)),
    vi.spyOn(console, 'error').mockImplementation((...parts: unknown[]) => void stderr.push(parts.join(' '))),
    vi.spyOn(process.stderr, 'write').mockImplementation((chunk: string | Uint8Array) => (stderr.push(String(chunk)), true)),
  ];
  try {
    const code = await runCli(...args);
    return { code, stdout: stdout.join('\n'), stderr: stderr.join('\n') };
  } finally {
    for (const spy of caught) spy.mockRestore();
  }
}
