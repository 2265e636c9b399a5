import type { Group } from '@microsoft/microsoft-graph-types';
import { describe, expect, it } from 'vitest';
import { lookUpGroups } from '../../../src/core/directory/group-lookup.js';
import type { BatchOutcome, BatchSubRequest, GraphReader } from '../../../src/core/graph/graph-reader.js';

/** A reader that answers each group look-up with the body given for its id, as `$batch` would. */
function readerAnswering(bodies: Record<string, Group & { members: unknown[] }>): { graph: GraphReader; urls: string[] } {
  const urls: string[] = [];
  const graph = {
    async batchGet(requests: readonly BatchSubRequest[]): Promise<Map<string, BatchOutcome>> {
      return new Map(
        requests.map((entry) => {
          urls.push(entry.url);
          const id = entry.url.split('/')[2]!.split('?')[0]!;
          return [entry.id, { ok: true, status: 200, body: bodies[id] }];
        }),
      );
    },
  } as unknown as GraphReader;
  return { graph, urls };
}

const id = (n: number) => `b0000000-0000-4000-8000-00000000000${n}`;
const members = [{ '@odata.type': '#microsoft.graph.user', id: 'u1' }];

describe('group look-ups tell a security group from the rest (learn.microsoft.com/graph/api/resources/groups-overview)', () => {
  it('asks for securityEnabled and mailEnabled, and marks only the groups their fields prove are not security groups', async () => {
    const { graph, urls } = readerAnswering({
      [id(1)]: { id: id(1), displayName: 'Security', groupTypes: [], securityEnabled: true, mailEnabled: false, members },
      [id(2)]: { id: id(2), displayName: 'Microsoft 365', groupTypes: ['Unified'], securityEnabled: false, mailEnabled: true, members },
      [id(3)]: { id: id(3), displayName: 'Microsoft 365, security-enabled', groupTypes: ['Unified'], securityEnabled: true, mailEnabled: true, members },
      [id(4)]: { id: id(4), displayName: 'Mail-enabled security', groupTypes: [], securityEnabled: true, mailEnabled: true, members },
      [id(5)]: { id: id(5), displayName: 'Distribution', groupTypes: [], securityEnabled: false, mailEnabled: true, members },
      // Fields that did not come back prove nothing.
      [id(6)]: { id: id(6), displayName: 'Fields not returned', members },
      [id(7)]: { id: id(7), displayName: 'Dynamic Microsoft 365', groupTypes: ['Unified', 'DynamicMembership'], securityEnabled: false, mailEnabled: true, members: [] },
    });
    const lookups = await lookUpGroups(graph, [1, 2, 3, 4, 5, 6, 7].map(id));
    expect(urls.every((url) => url.includes('$select=id,displayName,visibility,groupTypes,securityEnabled,mailEnabled&'))).toBe(true);
    // Each lists its whole membership, one user: it holds no device (group-lookup.ts, `holdsNoDevice`).
    const kept = { members: [{ id: 'u1', type: 'user' }], membersWhole: true };
    expect(lookups.get(id(1))).toEqual({ state: 'found', id: id(1), displayName: 'Security', isEmpty: false, holdsNoDevice: true, ...kept });
    expect(lookups.get(id(2))).toMatchObject({ notSecurityGroup: 'microsoft365' });
    expect(lookups.get(id(3))).toMatchObject({ notSecurityGroup: 'microsoft365' });
    expect(lookups.get(id(4))).toMatchObject({ notSecurityGroup: 'mailEnabledSecurity' });
    expect(lookups.get(id(5))).toMatchObject({ notSecurityGroup: 'distribution' });
    expect(lookups.get(id(6))).toEqual({ state: 'found', id: id(6), displayName: 'Fields not returned', isEmpty: false, holdsNoDevice: true, ...kept });
    expect(lookups.get(id(7))).toEqual({
      state: 'found',
      id: id(7),
      displayName: 'Dynamic Microsoft 365',
      isEmpty: true,
      dynamic: true,
      notSecurityGroup: 'microsoft365',
      members: [],
      membersWhole: true,
    });
  });
});
