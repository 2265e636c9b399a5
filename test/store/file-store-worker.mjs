// Another process sharing a file store, for test/store/file-state-store.test.ts. Plain JavaScript on
// the built store (npm test builds before it tests), so that it needs no TypeScript.
// Arguments: the built store's URL, the store's directory, how many writes of each sort to make.
import process from 'node:process';
import { createInterface } from 'node:readline';
import { setTimeout as sleep } from 'node:timers/promises';

const [storeUrl, directory, times] = process.argv.slice(2);
const { FileStateStore } = await import(storeUrl);
const store = await FileStateStore.open(directory, { tenant: 'test-tenant' });
const count = Number(times);
const writer = String(process.pid);

// Both processes start their writes together when the test says go.
process.stdout.write('ready\n');
await new Promise((resolve) => createInterface({ input: process.stdin }).once('line', resolve));

// `count` increments, each a read, change and write of one ledger under the channel lock: an entry's
// subjectId is the number of entries it found, so a lost update shows as a gap or a repeat. They
// start 10 ms apart (each takes a few), so that they overlap each other and the other process's.
const increments = Array.from({ length: count }, async (_, index) => {
  await sleep(index * 10);
  return store.withLock(
    '19:counter',
    async () => {
      const ledger = await store.readLedger('19:counter');
      const now = new Date().toISOString();
      const entry = {
        fingerprint: `${writer}-${index}`,
        report: 'escrow-gaps',
        kind: 'counter',
        subjectId: String(ledger.entries.length),
        subjectName: writer,
        status: 'open',
        changedAt: now,
      };
      await store.writeLedger({ ...ledger, updatedAt: now, entries: [...ledger.entries, entry] });
    },
    { waitMs: 20_000 },
  );
});
// Installation writes at the same time, under no lock: one key both overwrite, and keys both try to add once.
const installations = Array.from({ length: count }, async (_, index) => {
  await store.putInstallation('_t_shared', { writer, index }, { overwrite: true });
  return (await store.putInstallation(`_t_once_${index}`, { writer }, { overwrite: false })) ? [index] : [];
});

const outcomes = await Promise.all(increments);
const added = (await Promise.all(installations)).flat();
await store.close();
process.stdout.write(`${JSON.stringify({ writer, busy: outcomes.filter((outcome) => !outcome.ok).length, added })}\n`);
