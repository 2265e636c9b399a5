import type { GraphApplicationPermission } from './graph-permissions.js';

/**
 * One Graph read a report (or "what applies") makes, declared in its own folder. The Graph client's
 * allow-list, the permissions the product asks for, the demo tenant's grants, the `--deny` and
 * `--fault` switches and the simulator's coverage test are all derived from these declarations, so a
 * new read is declared once, beside the code that makes it (CONTRIBUTING.md, "Adding a Graph read").
 */
export interface UpstreamRead {
  /** The path as the client sends it, on its version segment: `/v1.0/...` or `/beta/...`; `{id}` stands for one Graph id. */
  readonly path: string;
  /**
   * The application permissions that allow it, any one of them enough; the first is the one the
   * product asks for (least privileged, as Graph's page for the call lists it).
   */
  readonly permissions: readonly [GraphApplicationPermission, ...GraphApplicationPermission[]];
  /** The fields its `$select` names, when it selects. */
  readonly select?: readonly string[];
  /** Whether the reader can do without it: a 403 then shows as n/a or "not checked", not as a load error. */
  readonly optional: boolean;
  /**
   * Only for a `/v1.0` path: its `/beta` twin is read instead when complete coverage is asked for
   * (`GRAPH_BETA_COVERAGE`), because `/v1.0` leaves out types or properties only beta declares.
   */
  readonly betaTwin?: boolean;
  /** Why it is read, in a line: what the report needs it for. */
  readonly why: string;
}
