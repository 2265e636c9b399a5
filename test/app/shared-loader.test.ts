import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { ReportResult } from '../../src/core/reports/report-model.js';
import { FileStateStore } from '../../src/store/file-state-store.js';
import { inflateCap } from '../../src/store/state-store.js';
import { sharedLoader } from '../../src/app/shared-loads.js';
import { reportResult } from '../fixtures/report-result.js';
import { holdLock } from '../support/gate.js';

/**
 * The ways sharing a load can fail short of the state store failing outright (which
 * shared-loads.test.ts shows across two processes on Azurite): a stored result that is damaged, and
 * another instance that holds the report's lock past the wait. Two stores over one directory stand
 * for two instances; the loader stands for Graph, counting its loads.
 */
let directory: string;
let store: FileStateStore;
let log: string[];
let loads: number;

const load = async (): Promise<ReportResult> => {
  loads += 1;
  return reportResult(new Date().toISOString(), ['missing-recovery-key:device-1']);
};

function loader(options: { waitMs?: number } = {}) {
  return sharedLoader(load, store, { maxAgeMs: 60_000, log: (line) => log.push(line), ...options });
}

beforeEach(async () => {
  directory = await mkdtemp(join(tmpdir(), 'dmhealth-shared-loader-'));
  store = await FileStateStore.open(directory, { tenant: 'test-tenant' });
  log = [];
  loads = 0;
});

afterEach(async () => {
  await store.close();
  await rm(directory, { recursive: true, force: true });
});

describe('a shared load when sharing goes wrong', () => {
  it('loads again, and overwrites, a stored result that is not a report', async () => {
    await store.writeCompressed('result-escrow-gaps', JSON.stringify({ report: 'escrow-gaps', rows: 'not rows' }));
    const result = await loader()('escrow-gaps', () => undefined);
    expect(loads).toBe(1);
    expect(log).toContain('report escrow-gaps: the shared result is not a report; loading it again');
    expect(JSON.parse((await store.readCompressed('result-escrow-gaps'))!)).toEqual(result);
  });

  it('loads again, and overwrites, a stored result whose bytes are damaged', async () => {
    await writeFile(join(directory, 'tenants', store.tenant, 'documents', 'result-escrow-gaps.json.gz'), Buffer.from('not gzip at all'));
    const result = await loader()('escrow-gaps', () => undefined);
    expect(loads).toBe(1);
    expect(log.some((line) => line.startsWith('report escrow-gaps: the shared result could not be read ('))).toBe(true);
    expect(JSON.parse((await store.readCompressed('result-escrow-gaps'))!)).toEqual(result);
  });

  it('refuses a stored result that inflates past the cap, without inflating it whole, then loads again and overwrites it', async () => {
    // 96 MiB of spaces gzip to about 100 KB: past 64 MiB, a thousand times its size, it is refused.
    const bomb = gzipSync(Buffer.alloc(96 * 1024 * 1024, 32), { level: 9 });
    expect(inflateCap(bomb.length)).toBeLessThan(96 * 1024 * 1024);
    await writeFile(join(directory, 'tenants', store.tenant, 'documents', 'result-escrow-gaps.json.gz'), bomb);
    const result = await loader()('escrow-gaps', () => undefined);
    expect(loads).toBe(1);
    expect(log.some((line) => line.startsWith('report escrow-gaps: the shared result could not be read (') && line.includes('inflates past'))).toBe(true);
    expect(JSON.parse((await store.readCompressed('result-escrow-gaps'))!)).toEqual(result);
  });

  it("loads for itself when another instance holds the report's lock past the wait, and tells the log", async () => {
    const other = await FileStateStore.open(directory, { tenant: 'test-tenant' });
    const release = await holdLock(other, 'load:escrow-gaps');
    try {
      const result = await loader({ waitMs: 300 })('escrow-gaps', () => undefined);
      expect(result.state).toBe('loaded');
      expect(loads).toBe(1);
      expect(log).toContain("report escrow-gaps: another instance's load took too long; loading without it");
      // Loaded without the lock, it is not stored as if shared.
      expect(await store.readCompressed('result-escrow-gaps')).toBeNull();
    } finally {
      await release();
      await other.close();
    }
  });
});
