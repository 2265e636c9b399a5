import type { ReportId } from '../../core/reports/report-model.js';
import { scheduleReports } from '../../core/schedule/post-schedule.js';
import type { PostSchedule } from '../../core/schedule/post-schedule.js';
import { areaOfReport } from '../../core/viewer-scope/areas.js';
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
 * tenant when it has none; the asker's is theirs
 * (the whole tenant with the viewer scope off). Their intersection is always a set of scope tags or
 * the whole tenant: the channel's tag when the asker sees it, the asker's tags in a channel of the
 * whole tenant. The one case it is empty (a channel set for a tag the asker does not see) is
 * refused: a post of nothing would still move the channel's ledger for findings the asker may not
 * see. A post for tags holds the reports whose rows carry tags (`scopeTagged`), as a scheduled one
 * for a tag does; a post of the whole tenant the reports posted by default.
 */
export function onDemandPost(
  asker: ViewerScope,
  schedule: Pick<PostSchedule, 'scopeTag' | 'reports'> | undefined,
  reports: { postedByDefault: readonly ReportId[]; scopeTagged: readonly ReportId[] },
): OnDemandPost {
  const tag = schedule?.scopeTag;
  if (asker.kind === 'none') return { ok: false, message: asker.explanation };
  if (tag) {
    if (asker.kind === 'tags' && !asker.tagIds.has(tag.id)) {
      return {
        ok: false,
        message: `This channel's posts are for scope tag ${tag.name}, which is outside what your Intune role assignments let you see (${describeScope(asker)}), so you cannot post its findings here. Someone who sees scope tag ${tag.name} can.`,
      };
    }
    return { ok: true, scope: channelScope(tag), reports: scheduleReports(schedule, reports) };
  }
  if (asker.kind === 'tenant') return { ok: true, scope: null, reports: reportsOpenTo(asker, reports.postedByDefault, reports.scopeTagged) };
  if (reports.scopeTagged.length === 0) return { ok: false, message: `No report carries scope tags, so there is nothing in your scope (${describeScope(asker)}) to post.` };
  return { ok: true, scope: asker, reports: reports.scopeTagged };
}

/**
 * Of `reports`, those an asker may post for the whole tenant: all of them with the viewer scope off
 * or for an Entra role that reads all Intune data; otherwise (an Intune role assignment without scope
 * tags, `areas`) the scope-tagged reports and the tenant-wide ones whose area their roles read
 * (scope-report.ts), so that a whole-tenant post never carries a report the one who set it may not see.
 */
export function reportsOpenTo(asker: ViewerScope, reports: readonly ReportId[], scopeTagged: readonly ReportId[]): ReportId[] {
  if (asker.kind === 'tenant' && !asker.areas) return [...reports];
  const granted = asker.kind === 'none' ? undefined : asker.areas?.granted;
  return reports.filter((id) => {
    if (scopeTagged.includes(id)) return true;
    const area = areaOfReport(id);
    return area !== null && granted?.has(area) === true;
  });
}
