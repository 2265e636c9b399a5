import { describe, expect, it } from 'vitest';
import {
  RETRY_AFTER_MS,
  channelTag,
  SCHEDULE_LIMIT,
  describeCadence,
  dueSlot,
  emptyScheduleBook,
  isScheduleBook,
  latestSlotAtOrBefore,
  nextSlotAfter,
  recordRun,
  removeSchedule,
  scheduleReports,
  setSchedule,
} from '../../../src/core/schedule/post-schedule.js';
import type { PostSchedule, ScheduleBook, ScheduleRequest } from '../../../src/core/schedule/post-schedule.js';
import { readScheduleRequest } from '../../../src/bot/commands/schedule-grammar.js';

const at = (iso: string) => new Date(iso);

function scheduled(request: ScheduleRequest, setAt: string, senderTimeZone: string | null = 'UTC'): { book: ScheduleBook; schedule: PostSchedule } {
  const change = setSchedule(emptyScheduleBook(), request, {
    channel: '19:general@thread.tacv2',
    name: 'IT › General',
    reference: { conversation: { id: '19:general@thread.tacv2' } },
    reports: ['escrow-gaps'],
    setBy: 'Megan',
    senderTimeZone,
    now: at(setAt),
  });
  if (!change.ok) throw new Error(change.message);
  return { book: change.book, schedule: change.schedule };
}

/** The book after a run of its one schedule for `slot`, at `now`. */
function afterRun(
  book: ScheduleBook,
  slot: string,
  now: Date,
  outcome: { status: string; succeeded: boolean; message?: string } = { status: 'posted', succeeded: true },
): ScheduleBook {
  const [schedule] = book.schedules;
  return recordRun(book, { channel: schedule!.channel, setAt: schedule!.setAt, slot: at(slot), now, ...outcome });
}

/** What setting a schedule again in `schedule`'s channel takes, at `now`: Megan, UTC, report 4. */
function settingAgain(schedule: PostSchedule, now: string) {
  return { channel: schedule.channel, name: schedule.name, reference: schedule.reference, reports: ['escrow-gaps' as const], setBy: 'Megan', senderTimeZone: 'UTC', now: at(now) };
}

const request = (when: string): ScheduleRequest => {
  const reading = readScheduleRequest(when);
  if (!reading.ok) throw new Error(reading.message);
  return reading.request;
};

describe('which slot is due', () => {
  it('posts a daily slot once, from the first one after the schedule was set', () => {
    // Set on Monday 23 Nov at 10:00 UTC: Monday's 9:00 had passed already.
    let { book } = scheduled(request('daily at 9 00'), '2026-11-23T10:00:00Z');
    const schedule = () => book.schedules[0]!;
    expect(dueSlot(schedule(), at('2026-11-23T23:59:00Z'))).toBeNull();
    expect(dueSlot(schedule(), at('2026-11-24T08:59:59Z'))).toBeNull();
    expect(dueSlot(schedule(), at('2026-11-24T09:00:00Z'))).toEqual(at('2026-11-24T09:00:00Z'));
    book = afterRun(book, '2026-11-24T09:00:00Z', at('2026-11-24T09:00:20Z'));
    expect(dueSlot(schedule(), at('2026-11-24T09:00:40Z'))).toBeNull();
    expect(dueSlot(schedule(), at('2026-11-24T23:00:00Z'))).toBeNull();
    expect(dueSlot(schedule(), at('2026-11-25T09:00:05Z'))).toEqual(at('2026-11-25T09:00:00Z'));
  });

  it('owes one post, not one per slot, after days without a server', () => {
    let { book } = scheduled(request('daily at 9 00'), '2026-11-23T10:00:00Z');
    const schedule = () => book.schedules[0]!;
    book = afterRun(book, '2026-11-24T09:00:00Z', at('2026-11-24T09:00:20Z'));
    // Down from Tuesday evening to Friday 15:00: Wednesday's, Thursday's and Friday's slots were missed.
    const back = at('2026-11-27T15:00:00Z');
    expect(dueSlot(schedule(), back)).toEqual(at('2026-11-27T09:00:00Z'));
    book = afterRun(book, '2026-11-27T09:00:00Z', back, { status: 'nothing-new', succeeded: true });
    expect(dueSlot(schedule(), at('2026-11-27T15:00:30Z'))).toBeNull();
    expect(dueSlot(schedule(), at('2026-11-28T09:00:00Z'))).toEqual(at('2026-11-28T09:00:00Z'));
  });

  it('tries a failed run again after a pause, and the next slot replaces it', () => {
    let { book } = scheduled(request('daily at 9 00'), '2026-11-23T10:00:00Z');
    const schedule = () => book.schedules[0]!;
    const failedAt = at('2026-11-24T09:00:10Z');
    book = afterRun(book, '2026-11-24T09:00:00Z', failedAt, { status: 'failed', succeeded: false, message: 'Teams said 502' });
    expect(schedule().lastRun).toEqual({ at: failedAt.toISOString(), status: 'failed', message: 'Teams said 502' });
    expect(dueSlot(schedule(), new Date(failedAt.getTime() + RETRY_AFTER_MS - 1))).toBeNull();
    expect(dueSlot(schedule(), new Date(failedAt.getTime() + RETRY_AFTER_MS))).toEqual(at('2026-11-24T09:00:00Z'));
    book = afterRun(book, '2026-11-24T09:00:00Z', at('2026-11-24T09:11:00Z'));
    expect(schedule().retryAt).toBeUndefined();
    expect(schedule().lastSlot).toBe('2026-11-24T09:00:00.000Z');
  });

  it('records nothing on a schedule replaced since its run began', () => {
    const { book, schedule } = scheduled(request('daily at 9 00'), '2026-11-23T10:00:00Z');
    const after = recordRun(book, {
      channel: schedule.channel,
      setAt: '2026-11-20T10:00:00.000Z',
      slot: at('2026-11-24T09:00:00Z'),
      status: 'posted',
      succeeded: true,
      now: at('2026-11-24T09:00:20Z'),
    });
    expect(after).toEqual(book);
  });

  it('keeps a weekly slot to its day', () => {
    const { schedule } = scheduled(request('weekly on monday at 14 30'), '2026-11-18T10:00:00Z');
    expect(latestSlotAtOrBefore(schedule, at('2026-11-26T12:00:00Z'))).toEqual(at('2026-11-23T14:30:00Z'));
    expect(nextSlotAfter(schedule, at('2026-11-23T14:30:00Z'))).toEqual(at('2026-11-30T14:30:00Z'));
    expect(dueSlot(schedule, at('2026-11-23T14:29:00Z'))).toBeNull();
    expect(dueSlot(schedule, at('2026-11-23T14:30:00Z'))).toEqual(at('2026-11-23T14:30:00Z'));
    expect(describeCadence(schedule)).toBe('weekly on Monday at 14:30 (UTC)');
  });
});

describe('time zones', () => {
  it("keeps 9:00 at 9:00 on the sender's wall clock across a clock change", () => {
    // Europe/Berlin moves from UTC+1 to UTC+2 on 29 March 2026.
    const { schedule } = scheduled(request('daily at 9 00'), '2026-03-20T00:00:00Z', 'Europe/Berlin');
    expect(schedule.timeZone).toBe('Europe/Berlin');
    expect(nextSlotAfter(schedule, at('2026-03-28T00:00:00Z'))).toEqual(at('2026-03-28T08:00:00Z'));
    expect(nextSlotAfter(schedule, at('2026-03-29T00:00:00Z'))).toEqual(at('2026-03-29T07:00:00Z'));
    expect(latestSlotAtOrBefore(schedule, at('2026-03-30T12:00:00Z'))).toEqual(at('2026-03-30T07:00:00Z'));
  });

  it('posts a skipped time just after the skip, and a doubled time at its first', () => {
    const skipped = scheduled(request('daily at 2 30'), '2026-03-20T00:00:00Z', 'Europe/Berlin').schedule;
    // 02:30 does not happen on 29 March in Berlin (02:00 becomes 03:00): 03:30 CEST.
    expect(nextSlotAfter(skipped, at('2026-03-28T12:00:00Z'))).toEqual(at('2026-03-29T01:30:00Z'));
    // 02:30 happens twice on 25 October (03:00 CEST becomes 02:00 CET): the first, in CEST.
    expect(nextSlotAfter(skipped, at('2026-10-24T12:00:00Z'))).toEqual(at('2026-10-25T00:30:00Z'));
    expect(nextSlotAfter(skipped, at('2026-10-25T00:30:00Z'))).toEqual(at('2026-10-26T01:30:00Z'));
  });

  it('uses the zone the message names over the sender’s, and UTC when neither is known', () => {
    expect(scheduled(request('daily at 9 00 america new york'), '2026-11-23T10:00:00Z', 'Europe/Berlin').schedule.timeZone).toBe('America/New_York');
    expect(scheduled(request('daily at 9 00'), '2026-11-23T10:00:00Z', null).schedule.timeZone).toBe('UTC');
    expect(scheduled(request('daily at 9 00'), '2026-11-23T10:00:00Z', 'Not/AZone').schedule.timeZone).toBe('UTC');
  });
});

describe('the book of schedules', () => {
  it('holds one schedule per channel, replaced by a new one and removed by stop', () => {
    const first = scheduled(request('daily at 9 00'), '2026-11-23T10:00:00Z');
    const again = setSchedule(first.book, request('weekly on friday'), {
      channel: first.schedule.channel,
      name: 'IT › General',
      reference: {},
      reports: ['escrow-gaps'],
      setBy: 'Alex',
      senderTimeZone: 'UTC',
      now: at('2026-11-23T11:00:00Z'),
    });
    expect(again.ok && again.book.schedules).toHaveLength(1);
    expect(again.ok && again.replaced).toEqual(first.schedule);
    const { book, removed } = removeSchedule(again.ok ? again.book : first.book, first.schedule.channel);
    expect(removed?.setBy).toBe('Alex');
    expect(book.schedules).toEqual([]);
    expect(removeSchedule(book, first.schedule.channel).removed).toBeNull();
  });

  it('refuses a new channel past the limit of schedules, but lets a channel that has one replace it', () => {
    const { book, schedule } = scheduled(request('daily at 9 00'), '2026-11-23T10:00:00Z');
    const full: ScheduleBook = {
      version: 1,
      schedules: Array.from({ length: SCHEDULE_LIMIT }, (_, index) => ({ ...schedule, channel: index === 0 ? schedule.channel : `19:channel-${index}` })),
    };
    expect(book.schedules).toHaveLength(1);
    const context = { name: 'IT › Other', reference: {}, reports: ['escrow-gaps' as const], setBy: 'Alex', senderTimeZone: 'UTC', now: at('2026-11-23T11:00:00Z') };
    expect(setSchedule(full, request('daily'), { ...context, channel: '19:new' })).toEqual({
      ok: false,
      message: `This app already posts on ${SCHEDULE_LIMIT} schedules; stop one first.`,
    });
    expect(setSchedule(full, request('weekly on friday'), { ...context, channel: schedule.channel }).ok).toBe(true);
  });

  it('says where the time zone came from: the message, the sender, or neither (UTC)', () => {
    const context = { channel: '19:general', name: 'IT › General', reference: {}, reports: ['escrow-gaps' as const], setBy: 'Megan', now: at('2026-11-23T10:00:00Z') };
    const zoneOf = (words: string, senderTimeZone: string | null) => {
      const change = setSchedule(emptyScheduleBook(), request(words), { ...context, senderTimeZone });
      return change.ok ? [change.schedule.timeZone, change.zoneFrom] : null;
    };
    expect(zoneOf('daily at 9 00 europe berlin', 'Asia/Tokyo')).toEqual(['Europe/Berlin', 'message']);
    expect(zoneOf('daily at 9 00', 'Asia/Tokyo')).toEqual(['Asia/Tokyo', 'sender']);
    // A zone Teams sends that the runtime does not know is no zone at all.
    expect(zoneOf('daily at 9 00', 'Mars/Olympus_Mons')).toEqual(['UTC', 'default']);
    expect(zoneOf('daily at 9 00', null)).toEqual(['UTC', 'default']);
  });

  it('knows a stored book from a torn or foreign one', () => {
    expect(isScheduleBook(scheduled(request('daily'), '2026-11-23T10:00:00Z').book)).toBe(true);
    expect(isScheduleBook(JSON.parse(JSON.stringify(scheduled(request('daily'), '2026-11-23T10:00:00Z').book)))).toBe(true);
    expect(isScheduleBook({ version: 1, schedules: [{ channel: 'x' }] })).toBe(false);
    expect(isScheduleBook({ version: 2, schedules: [] })).toBe(false);
    expect(isScheduleBook(null)).toBe(false);
  });

  it('keeps the scope tag a schedule is for, and knows a torn one', () => {
    const { book, schedule } = scheduled(request('daily'), '2026-11-23T10:00:00Z');
    const tagged = setSchedule(book, request('daily'), {
      channel: schedule.channel,
      name: schedule.name,
      reference: schedule.reference,
      reports: ['security-posture'],
      scopeTag: { id: '1', name: 'Europe' },
      setBy: 'Megan',
      senderTimeZone: 'UTC',
      now: at('2026-11-23T11:00:00Z'),
    });
    if (!tagged.ok) throw new Error(tagged.message);
    expect(tagged.schedule.scopeTag).toEqual({ id: '1', name: 'Europe' });
    expect(tagged.replaced?.scopeTag).toBeUndefined();
    expect(isScheduleBook(JSON.parse(JSON.stringify(tagged.book)))).toBe(true);
    expect(isScheduleBook({ ...tagged.book, schedules: [{ ...tagged.schedule, scopeTag: { id: 1 } }] })).toBe(false);
  });

  it('keeps the channel to its scope tag when its schedule stops, and reads a book stored before channels were kept so', () => {
    const { schedule } = scheduled(request('daily'), '2026-11-23T10:00:00Z');
    const europe = { id: '1', name: 'Europe' };
    // As an earlier version stored it: the tag on the schedule only, no channel bindings.
    const stored = JSON.parse(JSON.stringify({ version: 1, schedules: [{ ...schedule, scopeTag: europe }] })) as unknown;
    expect(isScheduleBook(stored)).toBe(true);
    const before = stored as ScheduleBook;
    expect(before.channelScopes).toBeUndefined();
    expect(channelTag(before, schedule.channel)).toEqual(europe);
    expect(channelTag(before, '19:other@thread.tacv2')).toBeUndefined();

    const stopped = removeSchedule(before, schedule.channel);
    expect(stopped.removed?.channel).toBe(schedule.channel);
    expect(stopped.book.schedules).toEqual([]);
    expect(channelTag(stopped.book, schedule.channel)).toEqual(europe);
    expect(isScheduleBook(JSON.parse(JSON.stringify(stopped.book)))).toBe(true);
    // A run recorded keeps the bindings.
    expect(
      recordRun(
        { ...stopped.book, schedules: [schedule] },
        { channel: schedule.channel, setAt: schedule.setAt, slot: at('2026-11-24T09:00:00Z'), status: 'posted', succeeded: true, now: at('2026-11-24T09:00:00Z') },
      ).channelScopes,
    ).toEqual([{ channel: schedule.channel, scopeTag: europe }]);

    // A schedule of the whole tenant set there opens the channel again; one of another tag keeps it to that tag.
    const context = settingAgain(schedule, '2026-11-25T10:00:00Z');
    const americas = setSchedule(stopped.book, request('daily'), { ...context, reports: ['security-posture'], scopeTag: { id: '2', name: 'Americas' } });
    if (!americas.ok) throw new Error(americas.message);
    expect(channelTag(americas.book, schedule.channel)).toEqual({ id: '2', name: 'Americas' });
    const whole = setSchedule(americas.book, request('daily'), { ...context, reports: ['escrow-gaps'] });
    if (!whole.ok) throw new Error(whole.message);
    expect(channelTag(whole.book, schedule.channel)).toBeUndefined();
    expect(whole.book.channelScopes).toBeUndefined();

    expect(isScheduleBook({ ...stopped.book, channelScopes: [{ channel: schedule.channel, scopeTag: { id: 1 } }] })).toBe(false);
    expect(isScheduleBook({ ...stopped.book, channelScopes: 'Europe' })).toBe(false);
  });

  it("posts a scope tag's tagged reports as they are now, of those only the ones its setter's roles read", () => {
    const { schedule } = scheduled(request('daily'), '2026-11-23T10:00:00Z');
    const registry = { scopeTagged: ['assignment-hygiene', 'security-posture', 'escrow-gaps'] as const };
    const tagged = { ...schedule, reports: ['escrow-gaps' as const], scopeTag: { id: '1', name: 'Europe' } };
    // An Entra role that reads all Intune data, or the scope off: every tagged report, a newly tagged one too.
    expect(scheduleReports({ ...tagged, setterReads: 'all' }, registry)).toEqual(registry.scopeTagged);
    // Managed devices and baselines read, but not apps: reports 3 and 4, not report 2, which shows apps too.
    expect(scheduleReports({ ...tagged, setterReads: ['managedDevices', 'securityBaselines', 'deviceConfigurations'] }, registry)).toEqual(['security-posture', 'escrow-gaps']);
    // A role that reads nothing (one that only reboots devices) posts nothing, whatever the tag.
    expect(scheduleReports({ ...tagged, setterReads: [] }, registry)).toEqual([]);
    // Kept before the setter's reads were: only the reports kept with it, never more.
    expect(scheduleReports(tagged, registry)).toEqual(['escrow-gaps']);
    // A schedule of the whole tenant: the reports kept with it.
    expect(scheduleReports({ ...schedule, setterReads: 'all' }, registry)).toEqual(['escrow-gaps']);
  });

  it("keeps a tagged schedule's setter's reads, and knows a torn one", () => {
    const { book, schedule } = scheduled(request('daily'), '2026-11-23T10:00:00Z');
    const context = settingAgain(schedule, '2026-11-23T11:00:00Z');
    const tagged = setSchedule(book, request('daily'), { ...context, scopeTag: { id: '1', name: 'Europe' }, setterReads: ['managedDevices'] });
    if (!tagged.ok) throw new Error(tagged.message);
    expect(tagged.schedule.setterReads).toEqual(['managedDevices']);
    expect(isScheduleBook(JSON.parse(JSON.stringify(tagged.book)))).toBe(true);
    for (const torn of ['managedDevices', [1], null])
      expect(isScheduleBook({ ...tagged.book, schedules: [{ ...tagged.schedule, setterReads: torn }] }), JSON.stringify(torn)).toBe(false);
    // An area this version does not know (a newer one's) keeps the book readable and opens nothing.
    const newer = { ...tagged.schedule, setterReads: ['managedDevices', 'somethingNewer'] as never };
    expect(isScheduleBook({ ...tagged.book, schedules: [newer] })).toBe(true);
    expect(scheduleReports({ ...newer, setterReads: ['somethingNewer'] as never }, { scopeTagged: ['escrow-gaps'] })).toEqual([]);
    // A schedule of the whole tenant keeps none: its kept reports are what it posts.
    const whole = setSchedule(book, request('daily'), { ...context, setterReads: 'all' });
    expect(whole.ok && whole.schedule.setterReads).toBeUndefined();
  });
});
