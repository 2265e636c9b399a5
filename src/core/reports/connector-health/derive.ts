/** Report 1's rules (docs/finding-rules.md): records in, table and findings out, no I/O. */

import { ageInDays, asNumber, asString, capitalise, describeAge, graphTimestamp, plural } from '../graph-values.js';
import { intuneLinks } from '../intune-links.js';
import type { CellTone, DeriveContext, DerivedReport, FindingDraft, ReportRow } from '../report-model.js';
import type { ConnectorFindingKind } from './finding-kinds.js';
import type { AutopilotSettings, ConnectorRecords, ManagedGooglePlay, MtdConnector, NdesConnector, PartnerIntegration } from './load.js';
import type { ConnectorThresholds } from './thresholds.js';

export type ConnectorHealth = 'healthy' | 'warning' | 'unhealthy' | 'not configured';

const HEALTH_ORDER: Record<ConnectorHealth, number> = { unhealthy: 0, warning: 1, healthy: 2, 'not configured': 3 };

/** Intune's support floor for the certificate connector (learn.microsoft.com/mem/intune/protect/certificate-connector-overview#lifecycle). */
const MINIMUM_CERTIFICATE_CONNECTOR_VERSION = [6, 2406, 0, 1001];

/** Mobile Threat Defense partners by connector id (the ids Intune uses; Maester and Microsoft365DSC carry the same list). */
const MTD_PARTNERS: Record<string, string> = {
  'fc780465-2017-40d4-a0c5-307022471b92': 'Microsoft Defender for Endpoint',
  '2c7790de-8b02-4814-85cf-e0c59380dee8': 'Lookout for Work',
  '28fd67fd-b179-4629-a8b0-dad420b697c7': 'Symantec Endpoint Protection',
  'd3ddeae8-441f-4681-b80f-aef644f7195a': 'Check Point Harmony Mobile',
  '08a8455c-48dd-45ff-ad82-7211355354f3': 'Zimperium',
  '8d0ed095-8191-4bd3-8a41-953b22d51ff7': 'Pradeo',
  '860d3ab4-8fd1-45f5-89cd-ecf51e4f92e5': 'BETTER Mobile Security',
  '870b252b-0ef0-4707-8847-50fc571472b3': 'Sophos',
  '1f58d6d2-02cc-4c80-b008-1bfe7396a10a': 'Jamf Trust',
  'a447eca6-a986-4d3f-9838-5862bf50776c': 'CylancePROTECT Mobile',
  '4928f0f6-2660-4f69-b4c5-5170ec921f7b': 'Trend Micro',
  'bb13fe25-ce1f-45aa-b278-cabbc6b9072e': 'SentinelOne',
  'c2b688fe-48c0-464b-a89c-67041aa8fcb2': 'Windows Security Center',
  '29ee2d98-e795-475f-a0f8-0802dc3384a9': 'CrowdStrike Falcon for Mobile',
  'fc06ff9b-e2f9-4221-9a68-465684ee8662': 'iVerify',
};
const DEFENDER_CONNECTOR_ID = 'fc780465-2017-40d4-a0c5-307022471b92';

interface Verdict {
  health: ConnectorHealth;
  reasons: string[];
}

/** Applies the tenant-status bands to a last-contact time. */
function freshness(last: Date | null, now: Date, thresholds: ConnectorThresholds, what: string): Verdict {
  if (!last) return { health: 'warning', reasons: [`never ${what}`] };
  const days = ageInDays(last, now);
  if (days >= thresholds.connectorUnhealthyAfterDays) {
    return { health: 'unhealthy', reasons: [`last ${what} ${describeAge(last, now)} (unhealthy at ${plural(thresholds.connectorUnhealthyAfterDays, 'day')})`] };
  }
  if (days > thresholds.connectorWarningAfterDays) {
    return { health: 'warning', reasons: [`last ${what} ${describeAge(last, now)} (warning after ${plural(thresholds.connectorWarningAfterDays, 'day')})`] };
  }
  return { health: 'healthy', reasons: [] };
}

function worst(...verdicts: Verdict[]): Verdict {
  const health = verdicts.reduce<ConnectorHealth>((current, verdict) => (HEALTH_ORDER[verdict.health] < HEALTH_ORDER[current] ? verdict.health : current), 'healthy');
  return { health, reasons: verdicts.flatMap((verdict) => verdict.reasons) };
}

function versionBelow(version: string, minimum: number[]): boolean {
  const parts = version.split('.').map((part) => Number(part));
  if (parts.some((part) => !Number.isInteger(part))) return false;
  for (let index = 0; index < minimum.length; index += 1) {
    const have = parts[index] ?? 0;
    const need = minimum[index]!;
    if (have !== need) return have < need;
  }
  return false;
}

const HEALTHY: Verdict = { health: 'healthy', reasons: [] };

/** At most a warning: for a state Microsoft does not document as a failure, however stale its last contact. */
function atMostWarning(verdict: Verdict): Verdict {
  if (verdict.health !== 'unhealthy') return verdict;
  // The reasons then say what was seen, not the verdict the row does not give.
  return { health: 'warning', reasons: verdict.reasons.map((reason) => reason.replace(/ \(unhealthy at [^)]*\)$/, '')) };
}

/** A state value the enum's page does not list: shown as Graph sent it, a warning and never a finding. */
function undocumentedState(what: string, state: string | null): Verdict {
  return { health: 'warning', reasons: [state ? `${what} is "${state}", a value Microsoft does not document` : `Intune reported no ${what}`] };
}

/**
 * `ndesConnectorState` (learn.microsoft.com/graph/api/resources/intune-deviceconfig-ndesconnectorstate?view=graph-rest-beta):
 * `none` "State not available yet for this connector", `active` "connected recently", `inactive`
 * "No recent activity". None is documented as a failure: whether the connector stopped working is
 * told by its last connection, in the tenant status bands (docs/finding-rules.md, report 1).
 */
const CERTIFICATE_CONNECTOR_STATES: Readonly<Record<string, Verdict>> = {
  active: HEALTHY,
  inactive: { health: 'warning', reasons: ['no recent activity from this connector'] },
  none: { health: 'warning', reasons: ['Intune has not reported a state for this connector yet'] },
};

export function certificateConnectorVerdict(connector: NdesConnector, now: Date, thresholds: ConnectorThresholds): Verdict {
  const state = asString(connector.state);
  const stateVerdict = (state && CERTIFICATE_CONNECTOR_STATES[state]) || undocumentedState('connector state', state);
  const version = asString(connector.connectorVersion);
  const versionVerdict: Verdict =
    version && versionBelow(version, MINIMUM_CERTIFICATE_CONNECTOR_VERSION)
      ? { health: 'warning', reasons: [`version ${version} is older than the supported ${MINIMUM_CERTIFICATE_CONNECTOR_VERSION.join('.')}`] }
      : HEALTHY;
  return worst(stateVerdict, freshness(graphTimestamp(connector.lastConnectionDateTime), now, thresholds, 'connected'), versionVerdict);
}

/**
 * How a `mobileThreatPartnerTenantState` member is judged
 * (learn.microsoft.com/graph/api/resources/intune-onboarding-mobilethreatpartnertenantstate?view=graph-rest-beta):
 * - `heartbeat`: the heartbeat and the connector's own threshold apply (Intune uses the partner's data);
 * - `capped`: the heartbeat is shown but the row is a warning at most (Intune does not use the partner yet).
 */
interface MtdStateRule {
  verdict: Verdict;
  heartbeat: 'judged' | 'capped' | 'not read';
}

const MTD_STATES: Readonly<Record<string, MtdStateRule>> = {
  // "Partner is enabled."
  enabled: { verdict: HEALTHY, heartbeat: 'judged' },
  // "Partner is available.": set up at the partner, not turned on in Intune.
  available: { verdict: { health: 'warning', reasons: ['available at the partner but not enabled in Intune'] }, heartbeat: 'capped' },
  // "Partner is unavailable."; the Defender page creates the connection when the status is Unavailable
  // (learn.microsoft.com/intune/intune-service/protect/advanced-threat-protection-configure).
  unavailable: { verdict: { health: 'warning', reasons: ['not connected: the partner side of the connection is not set up'] }, heartbeat: 'capped' },
  // Beta: "not provisioned and Intune has not received a heartbeat".
  notSetUp: { verdict: { health: 'not configured', reasons: ['not set up: Intune has not received a heartbeat from this partner'] }, heartbeat: 'not read' },
  // "Intune ignores compliance state for unresponsive MTD partners"
  // (learn.microsoft.com/intune/intune-service/protect/mtd-connector-enable).
  unresponsive: { verdict: { health: 'unhealthy', reasons: ["unresponsive: Intune ignores this partner's threat data in compliance"] }, heartbeat: 'judged' },
  // Beta: "the partner connector is in an error state".
  error: { verdict: { health: 'unhealthy', reasons: ['Intune reports an error for this connector'] }, heartbeat: 'judged' },
};

/** Why a connector `/v1.0` called `unknownFutureValue` still has no state (`stateOnBeta`, see load.ts). */
const STATE_NOT_NAMED: Readonly<Record<string, string>> = {
  failed: "Graph /v1.0 does not name this connector's state (not set up, or error), and reading it on beta failed",
  'not named': "Graph does not name this connector's state (not set up, or error): /v1.0 sends it as unknownFutureValue, and beta did not name it either",
};

export function mobileThreatDefenseVerdict(connector: MtdConnector, now: Date, thresholds: ConnectorThresholds): Verdict {
  const state = asString(connector.partnerState);
  const rule: MtdStateRule =
    (state && MTD_STATES[state]) ||
    (state === 'unknownFutureValue'
      ? { verdict: { health: 'warning', reasons: [STATE_NOT_NAMED[connector.stateOnBeta ?? 'not named'] ?? STATE_NOT_NAMED['not named']!] }, heartbeat: 'capped' }
      : { verdict: undocumentedState('partner state', state), heartbeat: 'capped' });
  if (rule.heartbeat === 'not read') return rule.verdict;
  const last = graphTimestamp(connector.lastHeartbeatDateTime);
  const threshold = asNumber(connector.partnerUnresponsivenessThresholdInDays);
  // Past its own threshold Intune ignores the partner's data in compliance ("ignore the data from
  // this … Partner for next compliance calculation", the property's description): unhealthy however
  // recent the tenant-status bands would call it.
  const thresholdVerdict: Verdict =
    last && threshold !== null && threshold > 0 && ageInDays(last, now) > threshold
      ? { health: 'unhealthy', reasons: [`no heartbeat for more than the partner's ${threshold}-day threshold: Intune ignores its data in compliance`] }
      : HEALTHY;
  // A connector not enabled in Intune has no compliance data of its own to ignore: only its age shows, at most a warning.
  if (rule.heartbeat === 'capped') return atMostWarning(worst(rule.verdict, freshness(last, now, thresholds, 'heartbeat')));
  return worst(rule.verdict, thresholdVerdict, freshness(last, now, thresholds, 'heartbeat'));
}

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

/** An unhealthy integration is the report's finding; a warning band is worth a look; one never set up is no verdict. */
const HEALTH_TONES: Record<ConnectorHealth, CellTone> = { healthy: 'ok', warning: 'warning', unhealthy: 'danger', 'not configured': 'neutral' };

export function deriveConnectorHealth(records: ConnectorRecords, { now, thresholds }: DeriveContext<ConnectorThresholds>): DerivedReport<ConnectorFindingKind> {
  const rows: ReportRow[] = [];
  const findings: FindingDraft<ConnectorFindingKind>[] = [];
  const add = (id: string, kind: string, name: string, verdict: Verdict, lastContact: Date | null, link: string) => {
    const reason = verdict.reasons.length > 0 ? capitalise(verdict.reasons.join('; ')) : 'Reporting normally';
    rows.push({ id, kind, name, health: verdict.health, healthTone: HEALTH_TONES[verdict.health], lastContact: lastContact?.toISOString() ?? null, reason, link });
    if (verdict.health === 'unhealthy') findings.push({ kind: 'connector-unhealthy', subjectId: id, subjectName: `${kind}: ${name}`, detail: reason });
  };

  for (const connector of records.ndesConnectors) {
    add(
      String(connector.id),
      'Certificate connector',
      connector.displayName ?? connector.machineName ?? String(connector.id),
      certificateConnectorVerdict(connector, now, thresholds),
      graphTimestamp(connector.lastConnectionDateTime),
      intuneLinks.certificateConnectors(),
    );
  }
  if (records.ndesConnectors.length === 0) notConfigured('Certificate connector', 'No certificate connector is installed', intuneLinks.certificateConnectors());

  for (const connector of records.mobileThreatDefenseConnectors) {
    const id = String(connector.id).toLowerCase();
    add(
      String(connector.id),
      'Mobile Threat Defense',
      MTD_PARTNERS[id] ?? String(connector.id),
      mobileThreatDefenseVerdict(connector, now, thresholds),
      graphTimestamp(connector.lastHeartbeatDateTime),
      id === DEFENDER_CONNECTOR_ID ? intuneLinks.defenderConnector() : intuneLinks.tenantStatus(),
    );
  }
  if (records.mobileThreatDefenseConnectors.length === 0) notConfigured('Mobile Threat Defense', 'No Mobile Threat Defense connector is set up', intuneLinks.tenantStatus());

  const googlePlay = records.managedGooglePlay;
  add(
    googlePlay?.id ?? 'androidManagedStoreAccountEnterpriseSettings',
    'Managed Google Play',
    googlePlay?.ownerOrganizationName ?? 'Managed Google Play',
    managedGooglePlayVerdict(googlePlay, now, thresholds),
    graphTimestamp(googlePlay?.lastAppSyncDateTime),
    intuneLinks.managedGooglePlay(),
  );

  for (const partner of records.deviceManagementPartners) {
    add(
      String(partner.id),
      'Partner MDM',
      partner.displayName ?? String(partner.id),
      partnerVerdict(partner, now, thresholds),
      graphTimestamp(partner.lastHeartbeatDateTime),
      intuneLinks.tenantStatus(),
    );
  }
  if (records.deviceManagementPartners.length === 0) notConfigured('Partner MDM', 'No partner MDM integration is set up', intuneLinks.tenantStatus());

  const autopilot = records.autopilot;
  add(
    autopilot?.id ?? 'windowsAutopilotSettings',
    'Windows Autopilot',
    'Autopilot device sync',
    autopilotVerdict(autopilot, now, thresholds),
    graphTimestamp(autopilot?.lastSyncDateTime),
    intuneLinks.tenantStatus(),
  );

  rows.sort((a, b) => HEALTH_ORDER[a.health as ConnectorHealth] - HEALTH_ORDER[b.health as ConnectorHealth]);
  return {
    state: 'loaded',
    notice: null,
    columns: [
      { key: 'kind', label: 'Integration', available: true, format: 'text' },
      { key: 'name', label: 'Name', available: true, format: 'text' },
      { key: 'health', label: 'Health', available: true, format: 'status', toneKey: 'healthTone' },
      { key: 'lastContact', label: 'Last contact', available: true, format: 'date' },
      { key: 'reason', label: 'Reason', available: true, format: 'text' },
    ],
    rows,
    findings,
  };

  function notConfigured(kind: string, reason: string, link: string) {
    rows.push({
      id: `${kind.toLowerCase().replace(/\s+/g, '-')}-none`,
      kind,
      name: '—',
      health: 'not configured',
      healthTone: HEALTH_TONES['not configured'],
      lastContact: null,
      reason,
      link,
    });
  }
}
