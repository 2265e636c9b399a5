import { mkdtempSync, readdirSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type * as FsPromises from 'node:fs/promises';
import { afterAll, expect, it, vi } from 'vitest';
import { FileStateStore } from '../../src/store/file-state-store.js';

/**
 * The race of two processes breaking one stale lock, made to happen: the first rename of a lock file
 * aside waits until a test lets it go, so that the store doing it looked at the stale lock but moves
 * the fresh one another store created meanwhile.
 */
const renameAside = vi.hoisted(() => ({ hold: null as Promise<void> | null, held: (): void => undefined }));
vi.mock('node:fs/promises', async (importOriginal) => {
  const original = await importOriginal<typeof FsPromises>();
  return {
    ...original,
    rename: async (from: string, to: string) => {
      const hold = to.endsWith('.stale') ? renameAside.hold : null;
      if (hold) {
        renameAside.hold = null;
        renameAside.held();
        await hold;
      }
      return original.rename(from, to);
    },
  };
});

const directory = mkdtempSync(join(tmpdir(), 'dmhealth-takeover-'));
afterAll(() => rmSync(directory, { recursive: true, force: true }));

it('puts back a fresh lock that a slower breaker of the stale one moved aside', async () => {
  const warnings: string[] = [];
  const late = await FileStateStore.open(directory, { tenant: 'test-tenant', leaseMs: 1_000, warn: (line) => warnings.push(`late: ${line}`) });
  const quick = await FileStateStore.open(directory, { tenant: 'test-tenant', leaseMs: 1_000, warn: (line) => warnings.push(`quick: ${line}`) });
  // A lock its holder left a minute ago.
  let lockFile = '';
  await quick.withLock('19:race', async () => {
    lockFile = join(directory, 'tenants', 'test-tenant', 'locks', readdirSync(join(directory, 'tenants', 'test-tenant', 'locks'))[0]!);
  });
  writeFileSync(lockFile, JSON.stringify({ holder: 'dead', pid: 1, at: '2026-01-01T00:00:00Z' }));
  utimesSync(lockFile, new Date(Date.now() - 60_000), new Date(Date.now() - 60_000));

  let letGo!: () => void;
  renameAside.hold = new Promise<void>((resolve) => (letGo = resolve));
  const lateIsMoving = new Promise<void>((resolve) => (renameAside.held = resolve));
  const events: string[] = [];
  // `late` finds the stale lock and stops just before moving it aside.
  const lateTurn = late.withLock('19:race', async () => void events.push('late holds'), { waitMs: 5_000 });
  await lateIsMoving;
  // `quick` breaks the stale lock and takes it; while it holds it, `late` moves the lock aside.
  const quickTurn = quick.withLock(
    '19:race',
    async () => {
      events.push('quick holds');
      letGo();
      await new Promise((resolve) => setTimeout(resolve, 200));
      events.push('quick ends');
    },
    { waitMs: 5_000 },
  );
  expect(await Promise.all([quickTurn, lateTurn])).toEqual([
    { ok: true, value: undefined },
    { ok: true, value: undefined },
  ]);
  expect(events).toEqual(['quick holds', 'quick ends', 'late holds']);
  expect(warnings).toEqual([`quick: state store: took over a channel lock whose holder stopped renewing it (${lockFile})`]);
});
