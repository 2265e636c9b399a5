import { describe, expect, it } from 'vitest';
import { readScheduleRequest } from '../../src/bot/commands/schedule-grammar.js';

describe('reading when to post', () => {
  it.each([
    ['daily at 9 00', { cadence: { every: 'day' }, time: { hour: 9, minute: 0 }, timeZone: null }],
    ['daily', { cadence: { every: 'day' }, time: { hour: 9, minute: 0 }, timeZone: null }],
    ['every day at 14 30', { cadence: { every: 'day' }, time: { hour: 14, minute: 30 }, timeZone: null }],
    ['weekly on monday', { cadence: { every: 'week', on: 'monday' }, time: { hour: 9, minute: 0 }, timeZone: null }],
    ['weekly', { cadence: { every: 'week', on: 'monday' }, time: { hour: 9, minute: 0 }, timeZone: null }],
    ['every friday at 4 pm', { cadence: { every: 'week', on: 'friday' }, time: { hour: 16, minute: 0 }, timeZone: null }],
    ['on mondays at 12 am', { cadence: { every: 'week', on: 'monday' }, time: { hour: 0, minute: 0 }, timeZone: null }],
    ['daily at 8 30 a m europe berlin', { cadence: { every: 'day' }, time: { hour: 8, minute: 30 }, timeZone: 'Europe/Berlin' }],
    ['daily at 0730 in utc', { cadence: { every: 'day' }, time: { hour: 7, minute: 30 }, timeZone: 'UTC' }],
    ['weekly on tuesday at noon america new york', { cadence: { every: 'week', on: 'tuesday' }, time: { hour: 12, minute: 0 }, timeZone: 'America/New_York' }],
  ])('reads "%s"', (when, expected) => {
    expect(readScheduleRequest(when)).toEqual({ ok: true, request: expected });
  });

  it.each([
    ['asia kolkata', ['Asia/Kolkata', 'Asia/Calcutta']],
    ['europe kyiv', ['Europe/Kyiv', 'Europe/Kiev']],
    ['america argentina buenos aires', ['America/Argentina/Buenos_Aires', 'America/Buenos_Aires']],
    ['asia ho chi minh', ['Asia/Ho_Chi_Minh', 'Asia/Saigon']],
  ])('finds the zone "%s" by asking the runtime, in its own spelling', (words, spellings) => {
    const reading = readScheduleRequest(`daily at 9 ${words}`);
    expect(reading.ok && spellings.includes(reading.request.timeZone ?? '')).toBe(true);
  });

  it.each([
    ['daily at 25 00', '25:00 is not a time of day.'],
    ['daily at 13 pm', '13 pm is not a time.'],
    ['daily at nine', '"nine" is not a time'],
    ['weekly on someday', '"someday" is not a day of the week.'],
    ['daily at 9 mars olympus', '"mars olympus" is not a time zone I know'],
    ['at 9', 'Say how often'],
  ])('says why "%s" is not a schedule', (when, why) => {
    const reading = readScheduleRequest(when);
    expect(reading.ok).toBe(false);
    expect(!reading.ok && reading.message).toContain(why);
  });
});
