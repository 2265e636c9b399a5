import { describeCadence, describePosts, describeSlot, nextSlotAfter, setSchedule } from '../../core/schedule/post-schedule.js';
import { channelTag } from '../../core/schedule/post-schedule.js';
import type { PostSchedule, ScheduleBook, ScheduleRequest } from '../../core/schedule/post-schedule.js';
import { describeScope } from '../../core/viewer-scope/scope.js';
import type { ViewerScope } from '../../core/viewer-scope/scope.js';
import { commandWords } from '../message-words.js';
import { nothingYoursToPost, reportsOpenTo, setterReadsOf } from './channel-scope.js';
import type { BotRequest, Command, CommandContext } from './command.js';
import { changeSchedules } from './posting-schedules.js';
import { SCHEDULE_PATTERN, readScheduleRequest } from './schedule-grammar.js';

/** A schedule as asked (schedule-grammar.ts), with the scope tag it names as words, if any; or why it was not understood. */
type ScheduleReading = { kind: 'schedule-posts'; request: ScheduleRequest; scopeTag: string | null } | { kind: 'schedule-not-understood'; message: string };

/**
 * `post new findings daily at 9:00`: this conversation's schedule, set or replaced; or what was not
 * understood in it. With the viewer scope on, `post new findings for scope tag Europe daily at 9:00`
 * posts only that scope tag's findings (docs/finding-rules.md, "Viewer scope"). The help card tells
 * of it on the line of `post new findings` and in its own section, so it has no line of its own.
 */
export const schedulePosts: Command<ScheduleReading> = {
  name: 'post new findings <when>',
  read({ words }) {
    const matched = SCHEDULE_PATTERN.exec(words);
    if (!matched) return null;
    const reading = readScheduleRequest(matched[2]!);
    return reading.ok ? { kind: 'schedule-posts', request: reading.request, scopeTag: matched[1] ?? null } : { kind: 'schedule-not-understood', message: reading.message };
  },
  nearMisses: ['post new findings daily at 9:00'],
  helpLines: () => [],
  // A schedule of one scope tag is set only by someone who sees that tag; one of the whole tenant only by a whole-tenant asker.
  viewerScope: 'in-scope',
  async handle(request, reading, context) {
    if (reading.kind === 'schedule-posts') return { text: await replySetSchedule(request, reading, context) };
    return {
      text: `${reading.message} For example: "post new findings daily at 9:00", "post new findings weekly on monday at 14:30", or "post new findings daily at 8 am Europe/Berlin".`,
    };
  },
};

/**
 * Whether an asker of `scope` may replace or stop `schedule`: a whole-tenant asker any, an asker
 * limited to scope tags only a schedule of one of their tags (docs/finding-rules.md, "Viewer scope").
 */
export function mayChangeSchedule(scope: ViewerScope, schedule: Pick<PostSchedule, 'scopeTag'>): boolean {
  if (scope.kind === 'tenant') return true;
  return scope.kind === 'tags' && schedule.scopeTag !== undefined && scope.tagIds.has(schedule.scopeTag.id);
}

/**
 * Whether an asker of `scope` may change what a channel posts: its schedule (`mayChangeSchedule`)
 * and the scope tag the channel is kept to, which only someone who sees that tag (or the whole
 * tenant) may change (docs/finding-rules.md, "Viewer scope", "A channel's audience"). The schedule
 * in the way, if any, for the refusal's words.
 */
export function mayChangeChannel(scope: ViewerScope, book: ScheduleBook, channel: string): { ok: true } | { ok: false; schedule: Pick<PostSchedule, 'scopeTag'> } {
  const tag = channelTag(book, channel);
  if (tag && !mayChangeSchedule(scope, { scopeTag: tag })) return { ok: false, schedule: { scopeTag: tag } };
  const current = book.schedules.find((schedule) => schedule.channel === channel);
  if (current && !mayChangeSchedule(scope, current)) return { ok: false, schedule: current };
  return { ok: true };
}

/** What an asker limited to scope tags is told of a schedule that is not theirs to change. */
export function notYourSchedule(scope: ViewerScope, schedule: Pick<PostSchedule, 'scopeTag'>): string {
  return `This conversation's schedule posts ${describePosts(schedule)}, which is outside what your Intune role assignments let you see (${describeScope(scope)}), so you cannot change or stop it.`;
}

type ScopeTagChoice = { ok: true; tag: { id: string; name: string } | null } | { ok: false; message: string };

/**
 * The scope tag a schedule names, checked: it is one of the tenant's tags (by name, as words), and
 * one the asker sees; without a name, the whole tenant, which only a whole-tenant asker may ask for
 * while the viewer scope is on.
 */
async function scopeTagFor(words: string | null, context: CommandContext): Promise<ScopeTagChoice> {
  // The asker's own scope: the tags they may keep a channel to, whatever the channel is kept to now.
  const { asker: scope, viewerScopes } = context;
  if (words === null) {
    if (scope.kind === 'tenant') return { ok: true, tag: null };
    return {
      ok: false,
      message: `Your Intune role assignments let you see ${describeScope(scope)}, not the whole tenant, so a schedule you set must name one of your scope tags: for example, "post new findings for scope tag ${scope.kind === 'tags' ? scope.tagNames[0] : 'Europe'} daily at 9:00".`,
    };
  }
  if (!viewerScopes) {
    return {
      ok: false,
      message:
        'Posts for one scope tag need the viewer scope (VIEWER_SCOPE=intune-rbac); without it, posts hold the whole tenant\'s new findings: "post new findings daily at 9:00".',
    };
  }
  const tags = await viewerScopes.scopeTags();
  if (!tags) return { ok: false, message: "Intune's scope tags could not be read just now; try again in a few minutes." };
  const yours = tags.filter((tag) => scope.kind === 'tenant' || (scope.kind === 'tags' && scope.tagIds.has(tag.id)));
  const tag = tags.find((candidate) => commandWords(candidate.displayName) === words);
  if (!tag || !yours.includes(tag)) {
    const names = yours.map((candidate) => candidate.displayName).sort();
    // Only the tags the asker sees are named, and whether another exists is not said: the others are outside their scope.
    return {
      ok: false,
      message: `"${words}" is not ${scope.kind === 'tenant' ? 'a scope tag of this tenant' : 'one of your scope tags'}; ${names.length > 0 ? `${scope.kind === 'tenant' ? 'its tags' : 'yours'}: ${names.join(', ')}` : 'there are none'}.`,
    };
  }
  if (context.registry.scopeTagged.length === 0) return { ok: false, message: 'No report carries scope tags, so there is nothing to post for one.' };
  return { ok: true, tag: { id: tag.id, name: tag.displayName } };
}

/**
 * The schedule set, in the time zone the message names, else the sender's (Teams sends it with
 * each message as `localTimezone`, an IANA name), else UTC. Scheduled posts go to the channel,
 * not the thread. A schedule of one scope tag posts the reports whose rows carry scope tags.
 */
async function replySetSchedule(request: BotRequest, reading: Extract<ScheduleReading, { kind: 'schedule-posts' }>, context: CommandContext): Promise<string> {
  const { channel } = request.conversation;
  const now = context.now();
  const chosen = await scopeTagFor(reading.scopeTag, context);
  if (!chosen.ok) return chosen.message;
  const scopeTag = chosen.tag;
  // Refused when the asker's own roles read none of the reports it would post (channel-scope.ts). A
  // schedule keeps the reports they read, and one for a scope tag what their roles read, so that it
  // posts the tagged reports as they are when it runs, of those only the ones they read (`scheduleReports`).
  const reports = reportsOpenTo(context.asker, scopeTag ? context.registry.scopeTagged : context.registry.postedByDefault);
  if (reports.length === 0) return nothingYoursToPost(context.asker);
  const changed = await changeSchedules(context, 'set', (book) => {
    const may = mayChangeChannel(context.asker, book, channel);
    if (!may.ok) return { book: null, value: { ok: false as const, message: notYourSchedule(context.asker, may.schedule) } };
    const change = setSchedule(book, reading.request, {
      channel,
      name: request.conversation.name ?? 'this conversation',
      reference: request.conversation.channelReference,
      reports,
      ...(scopeTag ? { scopeTag, setterReads: setterReadsOf(context.asker) } : {}),
      setBy: request.sender.name ?? 'someone',
      senderTimeZone: request.sender.timeZone,
      now,
    });
    return { book: change.ok ? change.book : null, value: change };
  });
  if (!changed.ok) return changed.reply;
  const change = changed.value;
  if (!change.ok) return change.message;
  const { schedule } = change;
  context.log(`posting schedule for ${channel}: ${describeCadence(schedule)}${schedule.scopeTag ? `, scope tag ${schedule.scopeTag.id}` : ''}, set by ${schedule.setBy}`);
  const zoneNote = change.zoneFrom === 'default' ? ' Teams did not say your time zone, so the time is UTC; add one to the command ("… at 9:00 Europe/Berlin") to change it.' : '';
  return (
    `From now on I post ${describePosts(schedule)} here ${describeCadence(schedule)}, starting ${describeSlot(nextSlotAfter(schedule, now), schedule.timeZone)}` +
    `${change.replaced ? ` (instead of ${describeCadence(change.replaced)})` : ''}. A post missed while the server is down follows once when it is back.${zoneNote} Send "stop posting" to end it.`
  );
}
