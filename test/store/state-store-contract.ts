import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { emptyLedger } from '../../src/store/state-store.js';
import type { ChannelLedger, StateStore } from '../../src/store/state-store.js';
import { holdLock } from '../support/gate.js';

export interface StoreFixture {
  /** A new store over the same backing as every other store this fixture opens (another app instance), for the tenant `test-tenant` unless another is named. */
  open(tenant?: string): Promise<StateStore>;
  dispose(): Promise<void>;
}

export function ledger(channel: string, count: number): ChannelLedger {
  return {
    channel,
    updatedAt: '2026-11-23T09:00:00.000Z',
    entries: Array.from({ length: count }, (_, index) => ({
      fingerprint: index.toString(16).padStart(32, '0'),
      report: 'escrow-gaps' as const,
      kind: 'missing-recovery-key',
      subjectId: `device-${index}`,
      subjectName: `DESKTOP-${index}`,
      status: 'open' as const,
      changedAt: '2026-11-23T09:00:00.000Z',
    })),
  };
}

/** What every state store promises, whatever its backing. */
export function describeStateStoreContract(name: string, fixture: () => Promise<StoreFixture>): void {
  describe(`${name}: the state store contract`, () => {
    let backing: StoreFixture;
    let store: StateStore;

    beforeAll(async () => {
      backing = await fixture();
      store = await backing.open();
    });

    afterAll(async () => {
      await store?.close();
      await backing?.dispose();
    });

    it('adds an installation once, overwrites it only when asked, lists and removes it', async () => {
      expect(await store.putInstallation('_t1_19:general', { conversation: { id: '19:general' } }, { overwrite: false })).toBe(true);
      expect(await store.putInstallation('_t1_19:general', { conversation: { id: 'changed' } }, { overwrite: false })).toBe(false);
      expect(await store.putInstallation('_t1_a:chat', { conversation: { id: 'a:chat' } }, { overwrite: true })).toBe(true);
      expect(await store.listInstallations()).toEqual([
        { key: '_t1_19:general', reference: { conversation: { id: '19:general' } } },
        { key: '_t1_a:chat', reference: { conversation: { id: 'a:chat' } } },
      ]);
      expect(await store.putInstallation('_t1_19:general', { conversation: { id: '19:general', name: 'General' } }, { overwrite: true })).toBe(true);
      expect((await store.listInstallations())[0]!.reference).toEqual({ conversation: { id: '19:general', name: 'General' } });
      expect(await store.removeInstallation('_t1_a:chat')).toBe(true);
      expect(await store.removeInstallation('_t1_a:chat')).toBe(false);
      expect((await store.listInstallations()).map((installation) => installation.key)).toEqual(['_t1_19:general']);
    });

    it('lets exactly one of two instances add the same installation at once', async () => {
      const other = await backing.open();
      try {
        const added = await Promise.all([
          store.putInstallation('_t2_19:race', { by: 'first' }, { overwrite: false }),
          other.putInstallation('_t2_19:race', { by: 'second' }, { overwrite: false }),
        ]);
        expect(added.filter(Boolean)).toHaveLength(1);
        const stored = (await store.listInstallations()).find((installation) => installation.key === '_t2_19:race');
        expect(stored?.reference).toEqual({ by: added[0] ? 'first' : 'second' });
      } finally {
        await store.removeInstallation('_t2_19:race');
        await other.close();
      }
    });

    it('reads an empty ledger for a channel never posted to, and what was written for another', async () => {
      expect(await store.readLedger('19:never@thread.tacv2')).toEqual(emptyLedger('19:never@thread.tacv2'));
      const written = ledger('19:posted@thread.tacv2', 3);
      await store.writeLedger(written);
      expect(await store.readLedger('19:posted@thread.tacv2')).toEqual(written);
      await store.writeLedger(ledger('19:posted@thread.tacv2', 1));
      expect(await store.readLedger('19:posted@thread.tacv2')).toEqual(ledger('19:posted@thread.tacv2', 1));
    });

    it('reads null for a document never written, and the whole text written, from another instance too', async () => {
      expect(await store.readDocument('never-written')).toBeNull();
      const text = JSON.stringify({ decisions: Array.from({ length: 2_000 }, (_, index) => ({ fingerprint: index.toString(16).padStart(32, '0') })) });
      await store.writeDocument('triage', text);
      await store.writeDocument('triage', `${text} `);
      const other = await backing.open();
      try {
        expect(await other.readDocument('triage')).toBe(`${text} `);
      } finally {
        await other.close();
      }
      await expect(store.writeDocument('../outside', '{}')).rejects.toThrow('Not a document name');
    });

    it('gives a reader the old text or the new, never a mix, while another instance replaces a document', async () => {
      // A short and a long text, so that a read which took its size from one and its bytes from the other shows.
      const short = JSON.stringify({ schedules: [{ channel: 'short' }] });
      const long = JSON.stringify({ schedules: Array.from({ length: 400 }, (_, index) => ({ channel: `long-${index}` })) });
      await store.writeDocument('schedules', short);
      const writer = await backing.open();
      const read: string[] = [];
      try {
        await Promise.all([
          (async () => {
            for (let round = 0; round < 60; round += 1) await writer.writeDocument('schedules', round % 2 === 0 ? long : short);
          })(),
          (async () => {
            for (let round = 0; round < 120; round += 1) read.push((await store.readDocument('schedules'))!);
          })(),
        ]);
      } finally {
        await writer.close();
      }
      expect(read.filter((text) => text !== short && text !== long).map((text) => text.length)).toEqual([]);
    });

    it('keeps a large document compressed and gives back its text whole', async () => {
      expect(await store.readCompressed('result-escrow-gaps')).toBeNull();
      const text = JSON.stringify({ rows: Array.from({ length: 20_000 }, (_, index) => ({ id: `device-${index}`, name: `DESKTOP-${index}` })) });
      await store.writeCompressed('result-escrow-gaps', text);
      const other = await backing.open();
      try {
        expect(await other.readCompressed('result-escrow-gaps')).toBe(text);
      } finally {
        await other.close();
      }
    });

    it("keeps each tenant's state apart: a store for another tenant over the same backing sees none of it, and keeps its own", async () => {
      await store.writeDocument('history-connector-health', '{"points":["test-tenant"]}');
      await store.writeLedger(ledger('19:apart', 2));
      await store.putInstallation('_t_apart', { conversation: { id: 'apart' } }, { overwrite: true });
      const other = await backing.open('demo-8a4f0c52-6d2e-4e91-b7a3-5c1d9e0f2b64');
      try {
        expect(other.tenant).toBe('demo-8a4f0c52-6d2e-4e91-b7a3-5c1d9e0f2b64');
        expect(await other.readDocument('history-connector-health')).toBeNull();
        expect(await other.readLedger('19:apart')).toEqual(emptyLedger('19:apart'));
        expect(await other.listInstallations()).toEqual([]);
        await other.writeDocument('history-connector-health', '{"points":["demo"]}');
        expect(await store.readDocument('history-connector-health')).toBe('{"points":["test-tenant"]}');
        // A lock of one tenant's does not hold up another's.
        const release = await holdLock(store, 'document:history-connector-health');
        expect(await other.withLock('document:history-connector-health', async () => 'ran', { waitMs: 1_000 })).toEqual({ ok: true, value: 'ran' });
        await release();
      } finally {
        await store.removeInstallation('_t_apart');
        await other.close();
      }
    });

    it('keeps what it holds when closed and opened again', async () => {
      await store.writeLedger(ledger('19:kept', 2));
      await store.writeDocument('history-escrow-gaps', '{"points":[]}');
      await store.close();
      store = await backing.open();
      expect(await store.readDocument('history-escrow-gaps')).toBe('{"points":[]}');
      expect(await store.readLedger('19:kept')).toEqual(ledger('19:kept', 2));
      expect((await store.listInstallations()).map((installation) => installation.key)).toContain('_t1_19:general');
    });

    it('runs two holders of one channel lock one after the other, in one instance and across two', async () => {
      const other = await backing.open();
      try {
        for (const [first, second] of [
          [store, store],
          [store, other],
        ] as const) {
          const events: string[] = [];
          const hold = (label: string) => async () => {
            events.push(`${label} start`);
            await new Promise((resolve) => setTimeout(resolve, 100));
            events.push(`${label} end`);
            return label;
          };
          const outcomes = await Promise.all([first.withLock('19:busy', hold('a')), second.withLock('19:busy', hold('b'))]);
          expect(outcomes).toEqual([
            { ok: true, value: 'a' },
            { ok: true, value: 'b' },
          ]);
          expect([
            ['a start', 'a end', 'b start', 'b end'],
            ['b start', 'b end', 'a start', 'a end'],
          ]).toContainEqual(events);
        }
      } finally {
        await other.close();
      }
    });

    it('posts once when two instances are triggered for one channel at once', async () => {
      const other = await backing.open();
      const posts: string[] = [];
      // What a poster does under the lock: read the ledger, post what it lacks, write it back.
      const postIfNew = (instance: StateStore, label: string) =>
        instance.withLock('19:once', async () => {
          const current = await instance.readLedger('19:once');
          if (current.entries.length > 0) return;
          await new Promise((resolve) => setTimeout(resolve, 50)); // the post itself
          posts.push(label);
          await instance.writeLedger(ledger('19:once', 1));
        });
      try {
        await Promise.all([postIfNew(store, 'first'), postIfNew(other, 'second'), postIfNew(other, 'third')]);
        expect(posts).toHaveLength(1);
        expect(await store.readLedger('19:once')).toEqual(ledger('19:once', 1));
      } finally {
        await other.close();
      }
    });

    it('does not make one channel wait for another', async () => {
      const release = await holdLock(store, '19:one');
      const second = await store.withLock('19:two', async () => 'done', { waitMs: 2_000 });
      expect(second).toEqual({ ok: true, value: 'done' });
      await release();
    });

    it('answers busy, without running the work, when a lock stays held past the wait, here or elsewhere', async () => {
      const other = await backing.open();
      try {
        for (const holderStore of [store, other]) {
          const release = await holdLock(holderStore, '19:held');
          let ran = false;
          const waitedFrom = Date.now();
          const outcome = await store.withLock('19:held', async () => (ran = true), { waitMs: 300 });
          expect(outcome).toEqual({ ok: false, reason: 'busy' });
          expect(ran).toBe(false);
          expect(Date.now() - waitedFrom).toBeLessThan(3_000);
          await release();
          expect(await store.withLock('19:held', async () => 'ran', { waitMs: 2_000 })).toEqual({ ok: true, value: 'ran' });
        }
      } finally {
        await other.close();
      }
    });

    it('releases the lock when the work fails', async () => {
      await expect(store.withLock('19:failing', async () => Promise.reject(new Error('post failed')))).rejects.toThrow('post failed');
      expect(await store.withLock('19:failing', async () => 'next', { waitMs: 1_000 })).toEqual({ ok: true, value: 'next' });
    });
  });
}
