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

export function certificateConnectorVerdict(connector: NdesConnector, now: Date, thresholds: ConnectorThresholds): Verdict {
  const state = asString(connector.state);
  const stateVerdict: Verdict =
    state === 'inactive'
      ? { health: 'unhealthy', reasons: ['connector is inactive: SCEP and PKCS certificates (Wi-Fi, VPN) stop issuing and renewing'] }
      : state === 'active'
        ? { health: 'healthy', reasons: [] }
        : { health: 'warning', reasons: [`connector state is "${state ?? 'unknown'}"`] };
  const version = asString(connector.connectorVersion);
  const versionVerdict: Verdict =
    version && versionBelow(version, MINIMUM_CERTIFICATE_CONNECTOR_VERSION)
      ? { health: 'warning', reasons: [`version ${version} is older than the supported ${MINIMUM_CERTIFICATE_CONNECTOR_VERSION.join('.')}`] }
      : { health: 'healthy', reasons: [] };
  return worst(stateVerdict, freshness(graphTimestamp(connector.lastConnectionDateTime), now, thresholds, 'connected'), versionVerdict);
}

/**
 * `notSetUp` and `error` are beta members of `mobileThreatPartnerTenantState`; `/v1.0`, where the
 * specification reads the connectors, ends the enum at `unknownFutureValue` and sends both as that
 * (intune-onboarding-mobilethreatpartnertenantstate, v1.0 and beta pages). Which of the two it was
 * cannot be told from the state, so such a connector is judged by its heartbeat alone.
 */
const STATE_HIDDEN_BY_V1 = 'unknownFutureValue';

export function mobileThreatDefenseVerdict(connector: MtdConnector, now: Date, thresholds: ConnectorThresholds): Verdict {
  const state = asString(connector.partnerState) ?? 'unknown';
  const stateVerdict: Verdict =
    state === 'enabled'
      ? { health: 'healthy', reasons: [] }
      : state === 'unavailable' || state === 'unresponsive' || state === 'error'
        ? { health: 'unhealthy', reasons: [`partner state is "${state}": threat-based compliance goes stale`] }
        : state === 'available'
          ? { health: 'warning', reasons: ['set up at the partner but not enabled in Intune'] }
          : state === 'notSetUp'
            ? { health: 'warning', reasons: ['connector not set up: no heartbeat received'] }
            : state === STATE_HIDDEN_BY_V1
              ? { health: 'healthy', reasons: ['Graph /v1.0 does not name this state (not set up, or in error), so it is judged by its heartbeat'] }
              : { health: 'warning', reasons: [`partner state "${state}" is not recognised`] };
  const last = graphTimestamp(connector.lastHeartbeatDateTime);
  const threshold = asNumber(connector.partnerUnresponsivenessThresholdInDays);
  // Past its own threshold Intune ignores the partner's data in compliance: unhealthy however
  // recent the tenant-status bands would call it.
  const thresholdVerdict: Verdict =
    last && threshold !== null && threshold > 0 && ageInDays(last, now) > threshold
      ? { health: 'unhealthy', reasons: [`no heartbeat for more than the partner's ${threshold}-day threshold: Intune ignores its data in compliance`] }
      : { health: 'healthy', reasons: [] };
  // A connector never set up has no heartbeat to age.
  const heartbeat = state === 'notSetUp' && !last ? { health: 'healthy' as const, reasons: [] } : freshness(last, now, thresholds, 'heartbeat');
  const verdict = worst(stateVerdict, thresholdVerdict, heartbeat);
  // Available or not set up means not in use by Intune yet: a warning at most (docs/finding-rules.md, report 1).
  return (state === 'available' || state === 'notSetUp') && verdict.health === 'unhealthy' ? { ...verdict, health: 'warning' } : verdict;
}

export function managedGooglePlayVerdict(settings: ManagedGooglePlay | null, now: Date, thresholds: ConnectorThresholds): Verdict {
  const bind = asString(settings?.bindStatus);
  if (!settings || !bind || bind === 'notBound') return { health: 'not configured', reasons: ['managed Google Play is not bound'] };
  if (bind === 'unbinding') return { health: 'unhealthy', reasons: ['the binding is being removed'] };
  const syncStatus = asString(settings.lastAppSyncStatus) ?? 'unknown';
  const syncVerdict: Verdict =
    syncStatus === 'success'
      ? { health: 'healthy', reasons: [] }
      : {
          health: 'unhealthy',
          reasons: [
            syncStatus === 'credentialsNotValid' ? 'last app sync failed: the binding credentials are no longer valid (bind again)' : `last app sync status is "${syncStatus}"`,
          ],
        };
  const bindVerdict: Verdict = bind === 'boundAndValidated' ? { health: 'healthy', reasons: [] } : { health: 'warning', reasons: [`bind status is "${bind}", not validated`] };
  return worst(bindVerdict, syncVerdict, freshness(graphTimestamp(settings.lastAppSyncDateTime), now, thresholds, 'app sync'));
}

export function partnerVerdict(partner: PartnerIntegration, now: Date, thresholds: ConnectorThresholds): Verdict {
  if (partner.isConfigured !== true) return { health: 'not configured', reasons: ['not connected to Intune'] };
  const state = asString(partner.partnerState) ?? 'unknown';
  const stateVerdict: Verdict =
    state === 'enabled'
      ? { health: 'healthy', reasons: [] }
      : state === 'terminated' || state === 'rejected' || state === 'unresponsive'
        ? { health: 'unhealthy', reasons: [`partner state is "${state}"`] }
        : { health: 'warning', reasons: [`partner state is "${state}"`] };
  const deadlines: Verdict[] = [];
  for (const [field, consequence] of [
    ['whenPartnerDevicesWillBeMarkedAsNonCompliantDateTime', 'marked non-compliant'],
    ['whenPartnerDevicesWillBeRemovedDateTime', 'removed'],
  ] as const) {
    const when = graphTimestamp(partner[field]);
    if (when && when.getTime() > now.getTime()) {
      deadlines.push({ health: 'warning', reasons: [`partner devices will be ${consequence} on ${when.toISOString().slice(0, 10)}`] });
    }
  }
  return worst(stateVerdict, freshness(graphTimestamp(partner.lastHeartbeatDateTime), now, thresholds, 'heartbeat'), ...deadlines);
}

export function autopilotVerdict(settings: AutopilotSettings | null, now: Date, thresholds: ConnectorThresholds): Verdict {
  const status = asString(settings?.syncStatus) ?? 'unknown';
  const last = graphTimestamp(settings?.lastSyncDateTime);
  if (!settings || (!last && status === 'unknown')) return { health: 'not configured', reasons: ['Autopilot has never synchronised'] };
  const statusVerdict: Verdict =
    status === 'failed'
      ? { health: 'unhealthy', reasons: ['the last Autopilot sync failed'] }
      : status === 'completed' || status === 'inProgress'
        ? { health: 'healthy', reasons: [] }
        : { health: 'warning', reasons: [`sync status is "${status}"`] };
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
