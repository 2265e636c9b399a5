/**
 * The viewer scope (`VIEWER_SCOPE=intune-rbac`, docs/finding-rules.md "Viewer scope"): each viewer
 * sees what their Intune role assignments let them see. One load of the role assignments, scope
 * tags, admin groups and role definitions is kept in the reports' cache, by name, for as long as a report is kept
 * fresh; each viewer's scope is worked out from it by the pure rules (src/core/viewer-scope). A
 * report is loaded once for everyone and filtered per scope when served: the filtered result is
 * made once per shared result and scope key (the tags, and the roles and reasons a view names), so
 * viewers of the same key share it, its bytes and its windows (docs/architecture.md, "Loading once for everyone").
 */

import { errorText } from '../core/error-text.js';
import type { GraphReader } from '../core/graph/graph-reader.js';
import type { ReportResult } from '../core/reports/report-model.js';
import { loadRbacRecords } from '../core/viewer-scope/load.js';
import { scopeReport } from '../core/viewer-scope/scope-report.js';
import type { ScopedReport } from '../core/viewer-scope/scope-report.js';
import { entraScopeOf, viewerScopeOf } from '../core/viewer-scope/scope.js';
import type { RbacRecords, ScopeTagRecord, Viewer, ViewerScope } from '../core/viewer-scope/scope.js';
import type { ReportCache } from './report-cache.js';

/** The name the role-based access control's reads are kept under in the report cache. */
const KEPT_AS = 'viewer-scope';

/** The one value `VIEWER_SCOPE` takes to turn the scope on; unset, every viewer sees the whole tenant, as before. */
export const INTUNE_RBAC_SCOPE = 'intune-rbac';

export interface ViewerScopesOptions {
  graph: GraphReader;
  /** The reports' cache: the reads are kept there, for the same period as a report. */
  cache: ReportCache;
  log: (line: string) => void;
}

export class ViewerScopes {
  /** Per shared result, its filtered results by scope key: made once, dropped with the result. */
  private readonly scoped = new WeakMap<ReportResult, Map<string, ScopedReport>>();
  /** Per load of the reads, each viewer's scope: worked out once, aged with the reads. */
  private readonly viewers = new WeakMap<RbacRecords, Map<string, ViewerScope>>();

  constructor(private readonly options: ViewerScopesOptions) {}

  /**
   * The viewer's scope, from the kept reads (loaded when none is fresh). Reads that fail leave every
   * viewer with nothing to see, and say why: a scope not known is never the whole tenant.
   */
  async scopeOf(viewer: Viewer): Promise<ViewerScope> {
    // An Entra role that reads all Intune data needs no Intune role assignment (entra-roles.ts).
    const entra = entraScopeOf(viewer);
    if (entra) return entra;
    let records: RbacRecords;
    try {
      records = await this.records();
    } catch (error) {
      this.options.log(`viewer scope: Intune's role assignments could not be read: ${errorText(error)}`);
      return {
        kind: 'none',
        explanation: "Intune's role assignments could not be read just now, so this app cannot tell what your role lets you see, and shows nothing. Try again in a few minutes.",
      };
    }
    let byViewer = this.viewers.get(records);
    if (!byViewer) this.viewers.set(records, (byViewer = new Map()));
    // By the person alone: an Entra role that could change their scope has answered above.
    const id = viewer.objectId.toLowerCase();
    let scope = byViewer.get(id);
    if (!scope) byViewer.set(id, (scope = viewerScopeOf(records, viewer)));
    return scope;
  }

  /** The tenant's scope tags, from the kept reads (loaded when none is fresh), for a schedule that names one; null when they could not be read. */
  async scopeTags(): Promise<readonly ScopeTagRecord[] | null> {
    try {
      return (await this.records()).tags;
    } catch (error) {
      this.options.log(`viewer scope: Intune's scope tags could not be read: ${errorText(error)}`);
      return null;
    }
  }

  /** The role assignments, scope tags, admin groups and role definitions, loaded once for everyone while they are fresh. */
  private records(): Promise<RbacRecords> {
    return this.options.cache.keep(KEPT_AS, () => loadRbacRecords(this.options.graph));
  }

  /** A report as a viewer of `scope` may see it: the shared result itself for the whole tenant, else one filtered result per scope key (everything the view shows: `viewKey`). */
  view(result: ReportResult, scope: ViewerScope): ScopedReport {
    if (scope.kind !== 'tags') return scopeReport(result, scope);
    let byKey = this.scoped.get(result);
    if (!byKey) this.scoped.set(result, (byKey = new Map()));
    let view = byKey.get(scope.key);
    if (!view) byKey.set(scope.key, (view = scopeReport(result, scope)));
    return view;
  }
}
