// The scheduler's clock, as a test sets it: the time is the ISO text in FAKE_CLOCK_FILE, which the
// test rewrites to move every process using it at once; the server looks for due slots every
// FAKE_CLOCK_TICK_MS.
import { readFileSync } from 'node:fs';
import process from 'node:process';

const file = process.env.FAKE_CLOCK_FILE;
if (!file) throw new Error('FAKE_CLOCK_FILE is not set');

export const schedulerClock = {
  now: () => new Date(readFileSync(file, 'utf8').trim()),
  tickMs: Number(process.env.FAKE_CLOCK_TICK_MS ?? 100),
};
