import { asString, graphTimestamp } from '../graph-values.js';
import type { AutopilotSettings, ManagedGooglePlay, PartnerIntegration } from './load.js';
import type { ConnectorThresholds } from './thresholds.js';
import { HEALTHY, atMostWarning, freshness, undocumentedState, worst } from './verdict.js';
import type { Verdict } from './verdict.js';

/**
 * Report 1's verdicts on the partners' services Intune syncs with (docs/finding-rules.md, report 1):
 * managed Google Play, the device management partners and Windows Autopilot.
 */

/**
 * `androidManagedStoreAccountBindStatus` and `…AppSyncStatus`
 * (learn.microsoft.com/graph/api/resources/intune-androidforwork-androidmanagedstoreaccountbindstatus?view=graph-rest-beta,
 * …-androidmanagedstoreaccountappsyncstatus?view=graph-rest-beta): Microsoft describes neither
 * member by member, so each is read by its name. Only a sync result whose name says it failed is a
 * failure.
 */
const GOOGLE_PLAY_BIND_STATES: Readonly<Record<string, Verdict>> = {
  boundAndValidated: HEALTHY,
  bound: { health: 'warning', reasons: ['bound, not yet validated'] },
};

const GOOGLE_PLAY_SYNC_RESULTS: Readonly<Record<string, Verdict>> = {
  success: HEALTHY,
  none: { health: 'healthy', reasons: ['no app sync result recorded'] },
  credentialsNotValid: { health: 'unhealthy', reasons: ['last app sync failed: the binding credentials are no longer valid (bind again)'] },
  androidForWorkApiError: { health: 'unhealthy', reasons: ["last app sync failed: Google's managed Google Play service returned an error"] },
  managementServiceError: { health: 'unhealthy', reasons: ['last app sync failed: the Intune service reported an error'] },
  unknownError: { health: 'unhealthy', reasons: ['last app sync failed with an unknown error'] },
};

export function managedGooglePlayVerdict(settings: ManagedGooglePlay | null, now: Date, thresholds: ConnectorThresholds): Verdict {
  const bind = asString(settings?.bindStatus);
  if (!settings || !bind || bind === 'notBound') return { health: 'not configured', reasons: ['managed Google Play is not bound'] };
  // Unbinding follows an administrator's `unbind` action; no failure is documented, and the sync of
  // a binding being removed says nothing.
  if (bind === 'unbinding') return { health: 'warning', reasons: ['the binding with managed Google Play is being removed'] };
  const bindVerdict = GOOGLE_PLAY_BIND_STATES[bind] ?? undocumentedState('bind status', bind);
  const syncStatus = asString(settings.lastAppSyncStatus);
  const syncVerdict = (syncStatus && GOOGLE_PLAY_SYNC_RESULTS[syncStatus]) || undocumentedState('app sync status', syncStatus);
  const age = freshness(graphTimestamp(settings.lastAppSyncDateTime), now, thresholds, 'app sync');
  // With no sync result recorded, the age of the last sync proves no failure either.
  return worst(bindVerdict, syncVerdict, syncStatus === 'none' ? atMostWarning(age) : age);
}

/**
 * `deviceManagementPartnerTenantState` (learn.microsoft.com/graph/api/resources/intune-onboarding-devicemanagementpartner;
 * the same members on v1.0 and beta, no `unknownFutureValue`). `terminated` is what an
 * administrator's disconnection leaves: "verify that the status is now Terminated … devices will be
 * removed" (learn.microsoft.com/intune/intune-service/protect/conditional-access-integrate-jamf).
 * `rejected` ("Partner messages are rejected") and `unresponsive` are failures by judgement: the
 * text says Intune refuses or no longer gets the partner's data (docs/finding-rules.md, report 1).
 */
const PARTNER_STATES: Readonly<Record<string, Verdict>> = {
  enabled: HEALTHY,
  unknown: { health: 'warning', reasons: ["Intune reports the partner's state as unknown"] },
  unavailable: { health: 'warning', reasons: ['Intune reports the partner as unavailable'] },
  rejected: { health: 'unhealthy', reasons: ["Intune is rejecting this partner's messages"] },
  unresponsive: { health: 'unhealthy', reasons: ['the partner has stopped responding to Intune'] },
};

const DEADLINES = [
  ['whenPartnerDevicesWillBeMarkedAsNonCompliantDateTime', 'marked non-compliant'],
  ['whenPartnerDevicesWillBeRemovedDateTime', 'removed'],
] as const;

function futureDate(value: unknown, now: Date): string | null {
  const when = graphTimestamp(value);
  return when && when.getTime() > now.getTime() ? when.toISOString().slice(0, 10) : null;
}

function terminatedVerdict(partner: PartnerIntegration, now: Date): Verdict {
  const removal = futureDate(partner.whenPartnerDevicesWillBeRemovedDateTime, now);
  return { health: 'warning', reasons: [removal ? `integration was disconnected; partner devices will be removed on ${removal}` : 'integration was disconnected'] };
}

export function partnerVerdict(partner: PartnerIntegration, now: Date, thresholds: ConnectorThresholds): Verdict {
  const state = asString(partner.partnerState);
  if (partner.isConfigured !== true) {
    return { health: 'not configured', reasons: state === 'terminated' ? terminatedVerdict(partner, now).reasons : ['not connected to Intune'] };
  }
  const deadlines: Verdict[] = [];
  for (const [field, consequence] of DEADLINES) {
    const when = futureDate(partner[field], now);
    if (when && !(state === 'terminated' && field === 'whenPartnerDevicesWillBeRemovedDateTime')) {
      deadlines.push({ health: 'warning', reasons: [`partner devices will be ${consequence} on ${when}`] });
    }
  }
  // A disconnected integration sends no heartbeat: its age is no failure.
  if (state === 'terminated') return worst(terminatedVerdict(partner, now), ...deadlines);
  const stateVerdict = (state && PARTNER_STATES[state]) || undocumentedState('partner state', state);
  return worst(stateVerdict, freshness(graphTimestamp(partner.lastHeartbeatDateTime), now, thresholds, 'heartbeat'), ...deadlines);
}

/**
 * `windowsAutopilotSyncStatus` (learn.microsoft.com/graph/api/resources/intune-enrollment-windowsautopilotsyncstatus?view=graph-rest-beta):
 * `unknown`, `inProgress`, `completed`, and `failed` ("Sync failed."), the one failure.
 */
const AUTOPILOT_SYNC_STATES: Readonly<Record<string, Verdict>> = {
  completed: HEALTHY,
  inProgress: HEALTHY,
  failed: { health: 'unhealthy', reasons: ['the last Autopilot sync failed'] },
  unknown: { health: 'warning', reasons: ['Intune reports the Autopilot sync status as unknown'] },
};

export function autopilotVerdict(settings: AutopilotSettings | null, now: Date, thresholds: ConnectorThresholds): Verdict {
  const status = asString(settings?.syncStatus) ?? 'unknown';
  const last = graphTimestamp(settings?.lastSyncDateTime);
  if (!settings || (!last && status === 'unknown')) return { health: 'not configured', reasons: ['Autopilot has never synchronised'] };
  const statusVerdict = AUTOPILOT_SYNC_STATES[status] ?? undocumentedState('sync status', status);
  return worst(statusVerdict, freshness(last, now, thresholds, 'sync'));
}
