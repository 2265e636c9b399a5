import type { ReportId } from '../reports/report-model.js';
import type { StoredReference } from '../conversation-reference.js';
import { taggedReportReadBy } from '../viewer-scope/report-access.js';
import type { ReadArea } from '../viewer-scope/areas.js';

/**
 * Scheduled posts of new findings (docs/contract.md, "Scheduled posts"): a channel asks for them
 * once (`post new findings daily at 9:00`), the server posts at each slot in the channel's time
 * zone, and a slot missed while no server ran is posted once when one runs again, not once per
 * missed slot. Everything here is pure: the book of schedules in, the book or a decision out.
 * The words a channel asks in are the bot's to read (src/bot/commands/schedule-grammar.ts); this
 * module starts from the `ScheduleRequest` they make.
 */

export const WEEKDAYS = ['sunday', 'monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday'] as const;
export type Weekday = (typeof WEEKDAYS)[number];

export type Cadence = { every: 'day' } | { every: 'week'; on: Weekday };

/** A wall-clock time in the schedule's time zone. */
export interface ClockTime {
  hour: number;
  minute: number;
}

/** What someone asked for, before it is a schedule. */
export interface ScheduleRequest {
  cadence: Cadence;
  time: ClockTime;
  /** Named in the message ("… at 9:00 Europe/Berlin"); otherwise the sender's. */
  timeZone: string | null;
}

export interface PostSchedule {
  /** The ledger key of the channel (or chat) posted to, and the schedule's key: one per channel. */
  channel: string;
  /** For people: "My Team › General". */
  name: string;
  cadence: Cadence;
  time: ClockTime;
  /** An IANA time zone name (`Europe/Berlin`, `UTC`). */
  timeZone: string;
  reports: ReportId[];
  /**
   * With the viewer scope on, the one scope tag whose findings the channel is posted (docs/finding-rules.md,
   * "Viewer scope"): its id, which the post filters by, and its name as it was when the schedule was
   * set. Absent: the whole tenant's findings.
   */
  scopeTag?: { id: string; name: string };
  /**
   * With a scope tag, what the Intune roles of the one who set the schedule read when they set it
   * (docs/finding-rules.md, "Which role permissions open reports 2, 3 and 4"): the areas they were
   * granted, or `all` where no Intune role narrowed them (an Entra role that reads all Intune data,
   * the scope off). A tagged schedule posts the tagged reports these reads open (`scheduleReports`),
   * never one its setter could not see when they set it: the reads are kept as they were then, and a
   * role lost since is not checked again until the schedule is set again. Absent in a book written
   * before it was kept.
   */
  setterReads?: readonly ReadArea[] | 'all';
  /** How the server reaches the channel without being spoken to (a Bot Framework conversation reference). */
  reference: StoredReference;
  setBy: string;
  /** When the schedule was set; no slot at or before it is posted. */
  setAt: string;
  /** The latest slot that ran (posted, or found nothing to post): earlier slots never run again. */
  lastSlot: string | null;
  /** The last run's outcome, for `show schedule`. */
  lastRun: { at: string; status: string; message?: string } | null;
  /** After a run that failed: not tried again before this time. */
  retryAt?: string;
}

export interface ScheduleBook {
  version: 1;
  schedules: PostSchedule[];
  /**
   * The scope tag each channel is kept to (docs/finding-rules.md, "Viewer scope", "A channel's
   * audience"): the channel's, not its schedule's, so it stays when the schedule stops, and every
   * command and post in the channel answers in it, whoever asks. Absent in a book written before it
   * was kept: a schedule's own `scopeTag` then binds its channel (`channelTag`).
   */
  channelScopes?: ChannelScope[];
}

/** A channel kept to one scope tag: its ledger key and the tag (its id, which posts filter by, and its name when it was bound). */
export interface ChannelScope {
  channel: string;
  scopeTag: { id: string; name: string };
}

/** One schedule per channel; a store with thousands of channels posting on schedules is not what this app is for. */
export const SCHEDULE_LIMIT = 1_000;
/** A run that failed (Teams refused, the store was busy) is tried again after this long, until the next slot. */
export const RETRY_AFTER_MS = 10 * 60_000;

export function emptyScheduleBook(): ScheduleBook {
  return { version: 1, schedules: [] };
}

export function isScheduleBook(value: unknown): value is ScheduleBook {
  const book = value as Partial<ScheduleBook> | null | undefined;
  return (
    typeof book === 'object' &&
    book !== null &&
    book.version === 1 &&
    Array.isArray(book.schedules) &&
    book.schedules.every(
      (schedule) =>
        typeof schedule?.channel === 'string' &&
        typeof schedule.timeZone === 'string' &&
        isTimeZone(schedule.timeZone) &&
        isCadence(schedule.cadence) &&
        isClockTime(schedule.time) &&
        Array.isArray(schedule.reports) &&
        typeof schedule.reference === 'object' &&
        schedule.reference !== null &&
        typeof schedule.setAt === 'string' &&
        (schedule.lastSlot === null || typeof schedule.lastSlot === 'string') &&
        (schedule.scopeTag === undefined || isTag(schedule.scopeTag)) &&
        (schedule.setterReads === undefined || isSetterReads(schedule.setterReads)),
    ) &&
    (book.channelScopes === undefined || (Array.isArray(book.channelScopes) && book.channelScopes.every((bound) => typeof bound?.channel === 'string' && isTag(bound.scopeTag))))
  );
}

/**
 * `all`, or a list of area names. A name this version does not know (a newer version's, after a
 * rollback) is kept and grants nothing (`scheduleReports` opens a report only by the areas it knows),
 * rather than make the whole book unreadable and every channel's binding with it.
 */
function isSetterReads(value: unknown): value is PostSchedule['setterReads'] {
  return value === 'all' || (Array.isArray(value) && value.every((area) => typeof area === 'string'));
}

function isTag(value: unknown): value is { id: string; name: string } {
  const tag = value as Partial<{ id: unknown; name: unknown }> | null | undefined;
  return typeof tag?.id === 'string' && typeof tag.name === 'string';
}

/**
 * The scope tag a channel is kept to, if any: its binding, else (a book written before bindings were
 * kept) the tag of its schedule. Undefined: the channel is not kept to a tag.
 */
export function channelTag(book: ScheduleBook, channel: string): { id: string; name: string } | undefined {
  return book.channelScopes?.find((bound) => bound.channel === channel)?.scopeTag ?? book.schedules.find((schedule) => schedule.channel === channel)?.scopeTag;
}

/** The book with `channel` kept to `tag`, or to no tag (null); every other channel's binding as it was. */
export function bindChannel(book: ScheduleBook, channel: string, tag: { id: string; name: string } | null): ScheduleBook {
  const others = (book.channelScopes ?? []).filter((bound) => bound.channel !== channel);
  const channelScopes = tag ? [...others, { channel, scopeTag: tag }] : others;
  const { channelScopes: _old, ...rest } = book;
  return channelScopes.length > 0 ? { ...rest, channelScopes } : rest;
}

function isCadence(value: unknown): value is Cadence {
  const cadence = value as Partial<{ every: string; on: string }> | null | undefined;
  return cadence?.every === 'day' || (cadence?.every === 'week' && (WEEKDAYS as readonly string[]).includes(cadence.on ?? ''));
}

function isClockTime(value: unknown): value is ClockTime {
  const time = value as Partial<ClockTime> | null | undefined;
  return Number.isInteger(time?.hour) && Number.isInteger(time?.minute) && time!.hour! >= 0 && time!.hour! < 24 && time!.minute! >= 0 && time!.minute! < 60;
}

/** Whether the runtime knows this IANA zone (Teams sends `localTimezone` in that form). */
export function isTimeZone(name: string): boolean {
  return name.length > 0 && zoneFormat(name) !== null;
}

/** The runtime's own spelling of an IANA zone it knows, whatever the case it is named in ("europe/berlin" is "Europe/Berlin"); null for one it does not know. */
export function runtimeTimeZone(name: string): string | null {
  return name.length > 0 ? (zoneFormat(name)?.resolvedOptions().timeZone ?? null) : null;
}

// ---------------------------------------------------------------------------------------------
// Changing the book.

/** A schedule set, and where its time zone came from: the message, the sender's Teams client, or neither (UTC). */
export type ScheduleChange =
  { ok: true; book: ScheduleBook; schedule: PostSchedule; replaced: PostSchedule | null; zoneFrom: 'message' | 'sender' | 'default' } | { ok: false; message: string };

/** Sets (or replaces) a channel's schedule. */
export function setSchedule(
  book: ScheduleBook,
  request: ScheduleRequest,
  context: {
    channel: string;
    name: string;
    reference: StoredReference;
    reports: ReportId[];
    scopeTag?: { id: string; name: string };
    setterReads?: PostSchedule['setterReads'];
    setBy: string;
    senderTimeZone: string | null;
    now: Date;
  },
): ScheduleChange {
  const replaced = book.schedules.find((schedule) => schedule.channel === context.channel) ?? null;
  if (!replaced && book.schedules.length >= SCHEDULE_LIMIT) return { ok: false, message: `This app already posts on ${SCHEDULE_LIMIT} schedules; stop one first.` };
  const sender = context.senderTimeZone && isTimeZone(context.senderTimeZone) ? context.senderTimeZone : null;
  const schedule: PostSchedule = {
    channel: context.channel,
    name: context.name,
    cadence: request.cadence,
    time: request.time,
    timeZone: request.timeZone ?? sender ?? 'UTC',
    reports: context.reports,
    ...(context.scopeTag ? { scopeTag: context.scopeTag } : {}),
    ...(context.scopeTag && context.setterReads ? { setterReads: context.setterReads } : {}),
    reference: context.reference,
    setBy: context.setBy,
    setAt: context.now.toISOString(),
    lastSlot: null,
    lastRun: null,
  };
  const zoneFrom = request.timeZone ? 'message' : sender ? 'sender' : 'default';
  // The channel is kept to the schedule's tag, or to none for a schedule of the whole tenant (which only a whole-tenant asker sets).
  const next = bindChannel({ ...book, schedules: [...book.schedules.filter((other) => other !== replaced), schedule] }, context.channel, context.scopeTag ?? null);
  return { ok: true, book: next, schedule, replaced, zoneFrom };
}

/**
 * The reports a schedule posts now. One of a scope tag posts the reports whose rows carry scope tags
 * as the registry declares them now (`scopeTagged`), not the list kept when it was set: the channel
 * asked for its tag's new findings, naming no report (no command names one), so a report that has
 * come to carry tags since belongs in its posts, and one that no longer does would be left out of
 * them anyway (docs/contract.md, "Scheduled posts", "For one scope tag"). Of those, only the ones its
 * setter's roles read (`setterReads`: all a report shows, as `reportOpensTo` decides); a schedule kept
 * before those reads were, only the reports kept with it. One of the whole tenant posts the reports
 * kept with it when it was set, which were already those its setter's roles read.
 */
export function scheduleReports(schedule: Pick<PostSchedule, 'scopeTag' | 'reports' | 'setterReads'>, registry: { scopeTagged: readonly ReportId[] }): readonly ReportId[] {
  if (!schedule.scopeTag) return schedule.reports;
  const reads = schedule.setterReads;
  if (reads === 'all') return registry.scopeTagged;
  if (reads === undefined) return registry.scopeTagged.filter((report) => schedule.reports.includes(report));
  return registry.scopeTagged.filter((report) => taggedReportReadBy(report, (area) => reads.includes(area)));
}

export function removeSchedule(book: ScheduleBook, channel: string): { book: ScheduleBook; removed: PostSchedule | null } {
  const removed = book.schedules.find((schedule) => schedule.channel === channel) ?? null;
  // The channel stays kept to its tag when its schedule stops: the binding is the channel's (`channelTag`).
  const tag = channelTag(book, channel);
  return { book: bindChannel({ ...book, schedules: book.schedules.filter((schedule) => schedule !== removed) }, channel, tag ?? null), removed };
}

/**
 * Records a run of the schedule set at `setAt` (a schedule replaced or stopped since is left as
 * it is). A run that posted, or found nothing new, closes its slot and every one before it; a run
 * that failed keeps the slot open and is tried again after RETRY_AFTER_MS.
 */
export function recordRun(book: ScheduleBook, run: { channel: string; setAt: string; slot: Date; status: string; message?: string; succeeded: boolean; now: Date }): ScheduleBook {
  return {
    ...book,
    schedules: book.schedules.map((schedule) => {
      if (schedule.channel !== run.channel || schedule.setAt !== run.setAt) return schedule;
      const lastRun = { at: run.now.toISOString(), status: run.status, ...(run.message ? { message: run.message } : {}) };
      if (run.succeeded) {
        const { retryAt: _cleared, ...rest } = schedule;
        return { ...rest, lastSlot: run.slot.toISOString(), lastRun };
      }
      return { ...schedule, lastRun, retryAt: new Date(run.now.getTime() + RETRY_AFTER_MS).toISOString() };
    }),
  };
}

// ---------------------------------------------------------------------------------------------
// Slots in a time zone.

/**
 * The slot a schedule owes a post for at `now`, or null: its latest slot at or before `now`, if
 * that is later than both the slot that last ran and the moment it was set. Only the latest: slots
 * missed while no server ran are one post, not one each.
 */
export function dueSlot(schedule: PostSchedule, now: Date): Date | null {
  if (schedule.retryAt && Date.parse(schedule.retryAt) > now.getTime()) return null;
  const slot = latestSlotAtOrBefore(schedule, now);
  const floor = Math.max(Date.parse(schedule.setAt), schedule.lastSlot ? Date.parse(schedule.lastSlot) : -Infinity);
  return slot.getTime() > floor ? slot : null;
}

/** The schedule's latest slot at or before `at`. */
export function latestSlotAtOrBefore(schedule: Pick<PostSchedule, 'cadence' | 'time' | 'timeZone'>, at: Date): Date {
  return searchSlot(schedule, at, -1, (slot) => slot.getTime() <= at.getTime());
}

/** The schedule's first slot after `at`. */
export function nextSlotAfter(schedule: Pick<PostSchedule, 'cadence' | 'time' | 'timeZone'>, at: Date): Date {
  return searchSlot(schedule, at, 1, (slot) => slot.getTime() > at.getTime());
}

/**
 * The first slot `accept`s, day by local day from `at`'s, backwards (-1) or forwards (1). Bounded:
 * a weekly slot is at most 7 local days away, plus one for a time on the other side of `at` today.
 */
function searchSlot(schedule: Pick<PostSchedule, 'cadence' | 'time' | 'timeZone'>, at: Date, step: -1 | 1, accept: (slot: Date) => boolean): Date {
  let day = localDate(at, schedule.timeZone);
  for (let days = 0; days < 9; days++) {
    if (matchesCadence(schedule.cadence, day)) {
      const slot = zonedInstant(day, schedule.time, schedule.timeZone);
      if (accept(slot)) return slot;
    }
    day = addDays(day, step);
  }
  throw new Error('no slot within 9 days of the time asked: a cadence the slot search does not know');
}

/** "daily at 09:00", "weekly on Monday at 14:30", in words for a card. */
export function describeCadence(schedule: Pick<PostSchedule, 'cadence' | 'time' | 'timeZone'>): string {
  const time = `${String(schedule.time.hour).padStart(2, '0')}:${String(schedule.time.minute).padStart(2, '0')}`;
  const when = schedule.cadence.every === 'day' ? 'daily' : `weekly on ${capitalise(schedule.cadence.on)}`;
  return `${when} at ${time} (${schedule.timeZone})`;
}

/** What a schedule posts, in words: "new findings", or "new findings in scope tag Europe" for a schedule of one scope tag. */
export function describePosts(schedule: Pick<PostSchedule, 'scopeTag'>): string {
  return schedule.scopeTag ? `new findings in scope tag ${schedule.scopeTag.name}` : 'new findings';
}

/** A slot as the channel reads it: "Tue 24 Nov, 09:00" in the schedule's time zone. */
export function describeSlot(slot: Date, timeZone: string): string {
  return new Intl.DateTimeFormat('en-GB', { timeZone, weekday: 'short', day: 'numeric', month: 'short', hour: '2-digit', minute: '2-digit', hourCycle: 'h23' }).format(slot);
}

interface LocalDate {
  year: number;
  month: number;
  day: number;
}

function matchesCadence(cadence: Cadence, day: LocalDate): boolean {
  return cadence.every === 'day' || WEEKDAYS[new Date(Date.UTC(day.year, day.month - 1, day.day)).getUTCDay()] === cadence.on;
}

function addDays(day: LocalDate, days: number): LocalDate {
  const moved = new Date(Date.UTC(day.year, day.month - 1, day.day + days));
  return { year: moved.getUTCFullYear(), month: moved.getUTCMonth() + 1, day: moved.getUTCDate() };
}

/**
 * The wall-clock format of a zone the runtime knows, made once per zone (a schedule book is checked
 * at every read, and building a format is the costly part); null for a zone it does not know.
 * Kept under the runtime's own spelling only: names in other spellings or unknown come from
 * messages, and a sender must not be able to grow the cache.
 */
const zoneFormats = new Map<string, Intl.DateTimeFormat>();
function zoneFormat(timeZone: string): Intl.DateTimeFormat | null {
  let format = zoneFormats.get(timeZone);
  if (!format) {
    try {
      format = new Intl.DateTimeFormat('en-US', {
        timeZone,
        hourCycle: 'h23',
        year: 'numeric',
        month: 'numeric',
        day: 'numeric',
        hour: 'numeric',
        minute: 'numeric',
        second: 'numeric',
      });
    } catch {
      return null;
    }
    const canonical = format.resolvedOptions().timeZone;
    if (canonical === timeZone) zoneFormats.set(timeZone, format);
  }
  return format;
}

function wallClock(at: Date, timeZone: string): LocalDate & ClockTime & { second: number } {
  const format = zoneFormat(timeZone);
  // Schedules are checked for a known zone when read and when set; an unknown one here is a bug.
  if (!format) throw new RangeError(`unknown time zone ${timeZone}`);
  const parts = Object.fromEntries(format.formatToParts(at).map((part) => [part.type, part.value]));
  return { year: Number(parts.year), month: Number(parts.month), day: Number(parts.day), hour: Number(parts.hour), minute: Number(parts.minute), second: Number(parts.second) };
}

function localDate(at: Date, timeZone: string): LocalDate {
  const { year, month, day } = wallClock(at, timeZone);
  return { year, month, day };
}

/** How far the zone's wall clock is ahead of UTC at that instant, in ms. */
function offsetAt(instant: number, timeZone: string): number {
  const wall = wallClock(new Date(instant), timeZone);
  return Date.UTC(wall.year, wall.month - 1, wall.day, wall.hour, wall.minute, wall.second) - Math.floor(instant / 1000) * 1000;
}

/**
 * The instant a wall-clock time happens in a zone. Across a clock change: a time that happens
 * twice (autumn) is its first, and a time the clock skips (spring) is taken with the offset from
 * before the change, so it falls just after the skip (02:30 on a night that jumps 02:00→03:00
 * posts at 03:30).
 */
function zonedInstant(day: LocalDate, time: ClockTime, timeZone: string): Date {
  const wall = Date.UTC(day.year, day.month - 1, day.day, time.hour, time.minute);
  const before = offsetAt(wall - 36 * 3_600_000, timeZone);
  const after = offsetAt(wall + 36 * 3_600_000, timeZone);
  // The larger offset first: of a time that happens twice, it gives the first.
  for (const offset of [Math.max(before, after), Math.min(before, after)]) {
    const candidate = wall - offset;
    if (offsetAt(candidate, timeZone) === offset) return new Date(candidate);
  }
  return new Date(wall - before);
}

function capitalise(word: string): string {
  return word.charAt(0).toUpperCase() + word.slice(1);
}
