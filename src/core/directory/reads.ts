import type { UpstreamRead } from '../graph/upstream-read.js';

/**
 * The directory's reads, declared once here where the group look-ups make them (group-lookup.ts),
 * and listed by each report that looks groups up (reports 2 and 5; "what applies" too).
 */

/**
 * `GET /groups/{id}` with `$expand=members($select=id)`, through `$batch`
 * (learn.microsoft.com/graph/api/group-get): Group.Read.All reads a group and its members. A
 * report that cannot read the groups it names is a 403 load error, not a guess.
 */
export const GROUP_READ = {
  path: '/v1.0/groups/{id}',
  permissionsPage: 'https://learn.microsoft.com/graph/api/group-get',
  permissions: ['Group.Read.All'],
  select: ['id', 'displayName', 'visibility', 'groupTypes', 'securityEnabled', 'mailEnabled'],
  optional: false,
  why: 'Whether a group an assignment or an approval policy names exists, what kind it is, and whether it has members.',
} as const satisfies UpstreamRead;

/**
 * `GET /directory/deletedItems/{id}` for a group `/groups/{id}` did not find, through `$batch`
 * (learn.microsoft.com/graph/api/directory-deleteditems-get: Group.Read.All). A failure leaves only
 * whether the group can come back unknown.
 */
export const DELETED_GROUP_READ = {
  path: '/v1.0/directory/deletedItems/{id}',
  permissionsPage: 'https://learn.microsoft.com/graph/api/directory-deleteditems-get',
  permissions: ['Group.Read.All'],
  select: ['id', 'displayName', 'deletedDateTime'],
  optional: true,
  why: 'Whether a deleted group is soft-deleted, and so restorable for 30 days.',
} as const satisfies UpstreamRead;
