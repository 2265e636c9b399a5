import type { ReportId } from '../../core/reports/report-model.js';
import type { ReadArea } from '../../core/viewer-scope/areas.js';
import { reportOpensTo } from '../../core/viewer-scope/scope-report.js';
import { describeScope, scopeOfTag } from '../../core/viewer-scope/scope.js';
import type { ViewerScope } from '../../core/viewer-scope/scope.js';

/**
 * The scope a channel's posts hold (docs/finding-rules.md, "Viewer scope", "Channel posts"): a
 * channel whose schedule was set for one scope tag is sent that tag's findings only, whatever makes
 * the post (its schedule, `post new findings` asked there, `/api/notify`), filtered as an admin
 * whose only assignment has that tag sees the tenant ("Admins in the Member (Groups) can see Intune
 * objects that also have" the assignment's scope tags,
 * learn.microsoft.com/intune/fundamentals/role-based-access-control/scope-tags).
 */
export function channelScope(tag: { id: string; name: string }): ViewerScope {
  return scopeOfTag({ id: tag.id, displayName: tag.name });
}

/** What a post asked for now holds: the whole tenant (no `scope`), or one scope, and its reports; or why nothing may be posted. */
export type OnDemandPost = { ok: true; scope: ViewerScope | null; reports: readonly ReportId[] } | { ok: false; message: string };

/**
 * `post new findings` asked now: at most what both the asker and the channel may see. The channel's
 * scope is the scope tag it is kept to (`channelTag`: kept when its schedule stops), or the whole
 * tenant when it has none (`tag` undefined); the asker's is theirs
 * (the whole tenant with the viewer scope off). Their intersection is always a set of scope tags or
 * the whole tenant: the channel's tag when the asker sees it, the asker's tags in a channel of the
 * whole tenant. Where it is empty (a channel set for a tag the asker does not see, which the bot's
 * dispatch already refuses with the scope on) it is refused: a post of nothing would still move the
 * channel's ledger for findings the asker may not see. A post for tags holds the reports whose rows
 * carry tags (`scopeTagged`), as a scheduled one for a tag does; a post of the whole tenant the
 * reports posted by default; either only those the asker's own roles open (`postOf`).
 */
export function onDemandPost(
  asker: ViewerScope,
  tag: { id: string; name: string } | undefined,
  reports: { postedByDefault: readonly ReportId[]; scopeTagged: readonly ReportId[] },
): OnDemandPost {
  if (asker.kind === 'none') return { ok: false, message: asker.explanation };
  if (tag) {
    if (asker.kind === 'tags' && !asker.tagIds.has(tag.id)) {
      return {
        ok: false,
        message: `This channel's posts are for scope tag ${tag.name}, which is outside what your Intune role assignments let you see (${describeScope(asker)}), so you cannot post its findings here. Someone who sees scope tag ${tag.name} can.`,
      };
    }
    return postOf(asker, channelScope(tag), reports.scopeTagged);
  }
  if (asker.kind === 'tenant') return postOf(asker, null, reports.postedByDefault);
  if (reports.scopeTagged.length === 0) return { ok: false, message: `No report carries scope tags, so there is nothing in your scope (${describeScope(asker)}) to post.` };
  return postOf(asker, asker, reports.scopeTagged);
}

/** A post of the reports among `reports` the asker's own scope opens, or why there is none. */
function postOf(asker: ViewerScope, scope: ViewerScope | null, reports: readonly ReportId[]): OnDemandPost {
  const yours = reportsOpenTo(asker, reports);
  if (yours.length === 0) return { ok: false, message: nothingYoursToPost(asker) };
  return { ok: true, scope, reports: yours };
}

/** What an asker whose Intune roles read none of the reports a post would carry is told. */
export function nothingYoursToPost(asker: ViewerScope): string {
  return `Your Intune roles read none of the reports a post here would carry (your scope: ${describeScope(asker)}), so there is nothing for you to post or schedule here.`;
}

/**
 * Of `reports`, those an asker may post (docs/finding-rules.md, "Viewer scope"): the ones their own
 * scope opens (`reportOpensTo`: every report with the viewer scope off or for an Entra role that reads
 * all Intune data; otherwise only those their Intune roles read), so that a post never carries a
 * report the one who asked for it may not see, whatever the channel is kept to.
 */
export function reportsOpenTo(asker: ViewerScope, reports: readonly ReportId[]): ReportId[] {
  return reports.filter((id) => reportOpensTo(asker, id));
}

/**
 * What a schedule keeps of its setter's reads (`PostSchedule.setterReads`): the areas their Intune
 * roles grant, or `all` where no Intune role narrows them (an Entra role that reads all Intune data,
 * the scope off), so that a schedule of a tag posts, when it runs, only the tagged reports they read.
 */
export function setterReadsOf(asker: ViewerScope): readonly ReadArea[] | 'all' {
  if (asker.kind === 'none') return [];
  return asker.areas ? [...asker.areas.granted.keys()].sort() : 'all';
}
