import { WEEKDAYS, runtimeTimeZone } from '../../core/schedule/post-schedule.js';
import type { Cadence, ClockTime, ScheduleRequest, Weekday } from '../../core/schedule/post-schedule.js';

/**
 * The words people type to set a schedule (docs/contract.md, "Scheduled posts"), read into a
 * `ScheduleRequest`; what a schedule then does with its time zone and slots is the core's
 * (src/core/schedule/post-schedule.ts). The words arrive as `commandWords` made them
 * (message-words.ts): lower case, punctuation as spaces, so "9:30 a.m. Europe/Berlin" arrives as
 * "9 30 a m europe berlin".
 */

/** The time of day when a message names none. */
export const DEFAULT_TIME: ClockTime = { hour: 9, minute: 0 };

/**
 * `post new findings [for scope tag <name>] <when>`: the scope tag's name, if one is named (group 1,
 * as words), and the words after it that say when (group 2). A tag's name is read up to the first
 * word a "when" starts with.
 */
export const SCHEDULE_PATTERN =
  /^post (?:the )?new findings (?:here )?(?:(?:for|in|of) (?:the )?scope tag (.+?) )?((?:daily|every|each|weekly|on|at|mondays?|tuesdays?|wednesdays?|thursdays?|fridays?|saturdays?|sundays?)\b.*)$/;

export type ScheduleRequestReading = { ok: true; request: ScheduleRequest } | { ok: false; message: string };

/**
 * "daily at 9 00", "every day at 14 30", "weekly on monday", "every friday at 4 pm", "daily at 9
 * europe berlin": a cadence, then optionally a time, then optionally a time zone.
 */
export function readScheduleRequest(when: string): ScheduleRequestReading {
  const words = when.trim().split(/\s+/);
  let index = 0;
  const next = () => words[index];
  let cadence: Cadence | null = null;
  if (next() === 'daily') {
    cadence = { every: 'day' };
    index += 1;
  } else if ((next() === 'every' || next() === 'each') && (words[index + 1] === 'day' || words[index + 1] === 'morning')) {
    cadence = { every: 'day' };
    index += 2;
  } else if (next() === 'weekly' || ((next() === 'every' || next() === 'each') && words[index + 1] === 'week')) {
    index += next() === 'weekly' ? 1 : 2;
    const day = weekdayAt(words, index) ?? (next() === 'on' ? weekdayAt(words, index + 1) : null);
    if (day) index += next() === 'on' ? 2 : 1;
    else if (next() === 'on') return { ok: false, message: `"${words[index + 1] ?? ''}" is not a day of the week.` };
    cadence = { every: 'week', on: day ?? 'monday' };
  } else {
    // "every monday", "on mondays", "mondays"
    const skip = next() === 'every' || next() === 'each' || next() === 'on' ? 1 : 0;
    const day = weekdayAt(words, index + skip);
    if (day) {
      cadence = { every: 'week', on: day };
      index += skip + 1;
    }
  }
  if (!cadence) return { ok: false, message: 'Say how often: daily, or weekly on a day ("weekly on monday").' };

  let time = DEFAULT_TIME;
  if (next() === 'at') {
    const read = readClockTime(words, index + 1);
    if (!read.ok) return read;
    time = read.time;
    index = read.next;
  }
  const rest = words.slice(index).join(' ');
  let timeZone: string | null = null;
  if (rest !== '') {
    timeZone = timeZoneByWords(rest.replace(/^in /, ''));
    if (!timeZone) return { ok: false, message: `"${rest}" is not a time zone I know; name one as Teams does, such as Europe/Berlin or America/New_York, or UTC.` };
  }
  return { ok: true, request: { cadence, time, timeZone } };
}

function weekdayAt(words: string[], index: number): Weekday | null {
  const word = words[index]?.replace(/s$/, '');
  return (WEEKDAYS as readonly string[]).includes(word ?? '') ? (word as Weekday) : null;
}

function readClockTime(words: string[], start: number): { ok: true; time: ClockTime; next: number } | { ok: false; message: string } {
  let index = start;
  const hourWord = words[index];
  if (hourWord === 'noon' || hourWord === 'midday') return { ok: true, time: { hour: 12, minute: 0 }, next: index + 1 };
  // "9", "9 30", "0930", "14 30", then "am"/"pm" (or "a m"), then "o clock" forgiven.
  let hour: number;
  let minute = 0;
  if (/^\d{3,4}$/.test(hourWord ?? '')) {
    hour = Number(hourWord!.slice(0, -2));
    minute = Number(hourWord!.slice(-2));
    index += 1;
  } else if (/^\d{1,2}$/.test(hourWord ?? '')) {
    hour = Number(hourWord);
    index += 1;
    if (/^\d{2}$/.test(words[index] ?? '')) {
      minute = Number(words[index]);
      index += 1;
    }
  } else {
    return { ok: false, message: `"${hourWord ?? ''}" is not a time; say it as 9:00, 14:30 or 4 pm.` };
  }
  let meridiem: 'am' | 'pm' | null = null;
  if (words[index] === 'am' || words[index] === 'pm') {
    meridiem = words[index] as 'am' | 'pm';
    index += 1;
  } else if ((words[index] === 'a' || words[index] === 'p') && words[index + 1] === 'm') {
    meridiem = words[index] === 'a' ? 'am' : 'pm';
    index += 2;
  }
  if (words[index] === 'o' && words[index + 1] === 'clock') index += 2;
  if (meridiem) {
    if (hour < 1 || hour > 12) return { ok: false, message: `${hour} ${meridiem} is not a time.` };
    hour = (hour % 12) + (meridiem === 'pm' ? 12 : 0);
  }
  if (hour > 23 || minute > 59) return { ok: false, message: `${hour}:${String(minute).padStart(2, '0')} is not a time of day.` };
  return { ok: true, time: { hour, minute }, next: index };
}

/**
 * The IANA zone these words name, lower-cased with its punctuation as spaces ("europe berlin",
 * "america argentina buenos aires", "asia ho chi minh"): each way of joining them with `/` or `_`
 * is asked of the runtime (zone names match regardless of case), and the runtime's own spelling
 * kept. Bounded: a zone name has at most five words here, so at most sixteen joinings.
 */
function timeZoneByWords(words: string): string | null {
  if (words === 'utc' || words === 'gmt') return 'UTC';
  const parts = words.split(' ');
  if (parts.length < 2 || parts.length > 5 || parts.some((part) => !/^[a-z0-9+-]+$/.test(part))) return null;
  for (let joins = 0; joins < 2 ** (parts.length - 1); joins++) {
    const name = parts.reduce((joined, part, index) => (index === 0 ? part : `${joined}${joins & (1 << (index - 1)) ? '_' : '/'}${part}`), '');
    const zone = runtimeTimeZone(name);
    if (zone) return zone;
  }
  return null;
}
