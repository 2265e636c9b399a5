import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { emptyLedger } from '../../src/core/store/state-store.js';
import type { ChannelLedger, StateStore } from '../../src/core/store/state-store.js';

export interface StoreFixture {
  /** A store over the same backing as every other store this fixture opens. */
  open(): Promise<StateStore>;
  dispose(): Promise<void>;
}

function ledger(channel: string, count: number): ChannelLedger {
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

    it('reads an empty ledger for a channel never posted to, and what was written for another', async () => {
      expect(await store.readLedger('19:never@thread.tacv2')).toEqual(emptyLedger('19:never@thread.tacv2'));
      const written = ledger('19:posted@thread.tacv2', 3);
      await store.writeLedger(written);
      expect(await store.readLedger('19:posted@thread.tacv2')).toEqual(written);
    });

    it('keeps what it holds when closed and opened again', async () => {
      await store.writeLedger(ledger('19:kept', 2));
      const reopened = await backing.open();
      try {
        expect(await reopened.readLedger('19:kept')).toEqual(ledger('19:kept', 2));
        expect((await reopened.listInstallations()).map((installation) => installation.key)).toContain('_t1_19:general');
      } finally {
        await reopened.close();
      }
    });

    it('runs two holders of one channel lock one after the other, even from two store instances', async () => {
      const other = await backing.open();
      const events: string[] = [];
      const hold = (label: string) => async () => {
        events.push(`${label} start`);
        await new Promise((resolve) => setTimeout(resolve, 150));
        events.push(`${label} end`);
        return label;
      };
      try {
        const [first, second] = await Promise.all([store.withChannelLock('19:busy', hold('a')), other.withChannelLock('19:busy', hold('b'))]);
        expect([first, second]).toEqual([
          { ok: true, value: 'a' },
          { ok: true, value: 'b' },
        ]);
        expect(events[1]!.endsWith('end')).toBe(true);
        expect(events[0]!.split(' ')[0]).toBe(events[1]!.split(' ')[0]);
      } finally {
        await other.close();
      }
    });

    it('does not make one channel wait for another', async () => {
      let releaseFirst!: () => void;
      const firstHeld = new Promise<void>((resolve) => (releaseFirst = resolve));
      const first = store.withChannelLock('19:one', () => firstHeld);
      const second = await store.withChannelLock('19:two', async () => 'done', { waitMs: 2_000 });
      expect(second).toEqual({ ok: true, value: 'done' });
      releaseFirst();
      await first;
    });

    it('answers busy when a lock stays held elsewhere past the wait', async () => {
      const other = await backing.open();
      let release!: () => void;
      const held = new Promise<void>((resolve) => (release = resolve));
      try {
        let started!: () => void;
        const isHeld = new Promise<void>((resolve) => (started = resolve));
        const holder = other.withChannelLock('19:held', async () => {
          started();
          await held;
        });
        await isHeld;
        expect(await store.withChannelLock('19:held', async () => 'ran', { waitMs: 300 })).toEqual({ ok: false, reason: 'busy' });
        release();
        await holder;
        expect(await store.withChannelLock('19:held', async () => 'ran', { waitMs: 2_000 })).toEqual({ ok: true, value: 'ran' });
      } finally {
        release();
        await other.close();
      }
    });

    it('releases the lock when the work fails', async () => {
      await expect(store.withChannelLock('19:failing', async () => Promise.reject(new Error('post failed')))).rejects.toThrow('post failed');
      expect(await store.withChannelLock('19:failing', async () => 'next', { waitMs: 1_000 })).toEqual({ ok: true, value: 'next' });
    });
  });
}
