import { describe, expect, it } from 'vitest';
import { onDemandPost } from '../../src/bot/commands/channel-scope.js';
import type { ReportId } from '../../src/core/reports/report-model.js';
import { WHOLE_TENANT, scopeOfTag } from '../../src/core/viewer-scope/scope.js';
import type { ViewerScope } from '../../src/core/viewer-scope/scope.js';

const reports = { postedByDefault: ['escrow-gaps', 'connector-health'] as ReportId[], scopeTagged: ['security-posture'] as ReportId[] };
const europe: ViewerScope = { kind: 'tags', tagIds: new Set(['1']), tagNames: ['Europe'], assignments: ['Europe IT'], key: '1' };
const europeChannel = { scopeTag: { id: '1', name: 'Europe' }, reports: ['security-posture'] as ReportId[] };
const americasChannel = { scopeTag: { id: '2', name: 'Americas' }, reports: ['security-posture'] as ReportId[] };

describe('"post new findings" asked now: at most what both the asker and the channel may see', () => {
  it('posts the whole tenant for a whole-tenant asker in a channel of no scope tag (a whole-tenant schedule keeps none), as with the scope off', () => {
    expect(onDemandPost(WHOLE_TENANT, undefined, reports)).toEqual({ ok: true, scope: null, reports: reports.postedByDefault });
  });

  it('keeps a channel set for a scope tag to that tag, whoever asks', () => {
    const expected = { ok: true, scope: scopeOfTag({ id: '1', displayName: 'Europe' }), reports: ['security-posture'] };
    expect(onDemandPost(WHOLE_TENANT, europeChannel.scopeTag, reports)).toEqual(expected);
    expect(onDemandPost(europe, europeChannel.scopeTag, reports)).toEqual(expected);
  });

  it('posts a channel set for a scope tag the reports that carry tags now, not the list its schedule kept when it was set', () => {
    const now = { ...reports, scopeTagged: ['assignment-hygiene', 'security-posture'] as ReportId[] };
    expect(onDemandPost(europe, europeChannel.scopeTag, now)).toMatchObject({ ok: true, reports: ['assignment-hygiene', 'security-posture'] });
  });

  it('posts a regional asker’s own tags in a channel of no scope tag', () => {
    expect(onDemandPost(europe, undefined, reports)).toEqual({ ok: true, scope: europe, reports: ['security-posture'] });
  });

  it('refuses, and says why, where the channel’s tag is outside the asker’s scope', () => {
    const refused = onDemandPost(europe, americasChannel.scopeTag, reports);
    expect(refused).toEqual({
      ok: false,
      message: expect.stringContaining("This channel's posts are for scope tag Americas, which is outside what your Intune role assignments let you see (scope tag Europe)"),
    });
  });

  it('refuses an asker of no scope, with their explanation, and a regional asker when no report carries tags', () => {
    expect(onDemandPost({ kind: 'none', explanation: 'No role.' }, undefined, reports)).toEqual({ ok: false, message: 'No role.' });
    expect(onDemandPost(europe, undefined, { ...reports, scopeTagged: [] })).toMatchObject({ ok: false, message: expect.stringContaining('No report carries scope tags') });
  });

  it("posts only the reports the asker's own Intune roles read, in a channel of a tag or of none, and nothing when they read none", () => {
    const roles = (granted: Array<'managedDevices' | 'securityBaselines'>): ViewerScope => ({
      ...europe,
      key: `1|${granted.join(',')}`,
      areas: { granted: new Map(granted.map((area) => [area, ['Europe IT']])), unknown: new Map(), roles: ['Europe IT'] },
    });
    const tagged = { ...reports, scopeTagged: ['security-posture', 'escrow-gaps'] as ReportId[] };
    const europeOfBoth = { ...europeChannel, reports: tagged.scopeTagged };
    // Reads managed devices only: report 4, not report 3's baselines, in either channel.
    expect(onDemandPost(roles(['managedDevices']), undefined, tagged)).toMatchObject({ ok: true, reports: ['escrow-gaps'] });
    expect(onDemandPost(roles(['managedDevices']), europeOfBoth.scopeTag, tagged)).toMatchObject({ ok: true, reports: ['escrow-gaps'] });
    // A role that reads nothing (a service desk's "Reboot now") posts nothing, and is told why.
    for (const channel of [undefined, europeOfBoth]) {
      expect(onDemandPost(roles([]), channel?.scopeTag, tagged)).toEqual({
        ok: false,
        message: expect.stringContaining('Your Intune roles read none of the reports a post here would carry'),
      });
    }
  });
});
