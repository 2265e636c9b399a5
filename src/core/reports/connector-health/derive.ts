/** Report 1's rules (docs/finding-rules.md): records in, table and findings out, no I/O. */

import { capitalise, graphTimestamp } from '../graph-values.js';
import { intuneLinks } from '../intune-links.js';
import type { CellTone, DeriveContext, DerivedReport, FindingDraft, ReportRow, UncheckedSubject } from '../report-model.js';
import type { OptionalRead } from '../optional-read.js';
import { adeTokenVerdict, pushCertificateVerdict, vppTokenName, vppTokenVerdict } from './apple-verdicts.js';
import { DEFENDER_CONNECTOR_ID, MTD_PARTNERS, adConnectorVerdict, certificateConnectorVerdict, mobileThreatDefenseVerdict } from './connector-verdicts.js';
import type { ConnectorFindingKind } from './finding-kinds.js';
import type { ConnectorRecords } from './load.js';
import { autopilotVerdict, managedGooglePlayVerdict, partnerVerdict } from './partner-verdicts.js';
import type { ConnectorThresholds } from './thresholds.js';
import { HEALTH_ORDER } from './verdict.js';
import type { ConnectorHealth, Verdict } from './verdict.js';

export type { ConnectorHealth };

/** An unhealthy integration is the report's finding; a warning band is worth a look; one never set up is no verdict. */
const HEALTH_TONES: Record<ConnectorHealth, CellTone> = { healthy: 'ok', warning: 'warning', unhealthy: 'danger', 'could not check': 'neutral', 'not configured': 'neutral' };

/** The finding each of the Apple and Active Directory rows makes when unhealthy (docs/finding-rules.md, report 1). */
type RowFindings = { unhealthy: ConnectorFindingKind; expiring?: ConnectorFindingKind };
const CONNECTOR_ROW: RowFindings = { unhealthy: 'connector-unhealthy' };

export function deriveConnectorHealth(records: ConnectorRecords, { now, thresholds }: DeriveContext<ConnectorThresholds>): DerivedReport<ConnectorFindingKind> {
  const rows: ReportRow[] = [];
  const findings: FindingDraft<ConnectorFindingKind>[] = [];
  const uncheckedSubjects: Array<UncheckedSubject<ConnectorFindingKind>> = [];
  const add = (id: string, kind: string, name: string, verdict: Verdict, lastContact: Date | null, link: string, makes: RowFindings = CONNECTOR_ROW) => {
    const reason = verdict.reasons.length > 0 ? capitalise(verdict.reasons.join('; ')) : 'Reporting normally';
    rows.push({ id, kind, name, health: verdict.health, healthTone: HEALTH_TONES[verdict.health], lastContact: lastContact?.toISOString() ?? null, reason, link });
    if (verdict.health === 'unhealthy') findings.push({ kind: makes.unhealthy, subjectId: id, subjectName: `${kind}: ${name}`, detail: reason });
    else if (verdict.expiresSoon && makes.expiring) findings.push({ kind: makes.expiring, subjectId: id, subjectName: `${kind}: ${name}`, detail: reason });
  };
  /**
   * A source read beside the specification that failed: one row saying so, and its kinds kept open
   * (an earlier finding is not resolved by a read that did not happen; no subject id is known, so
   * the whole kind stays open).
   */
  const couldNotCheck = (kind: string, what: string, reason: string, link: string, kinds: readonly ConnectorFindingKind[]) => {
    const id = `${kind.toLowerCase().replace(/\s+/g, '-')}-unread`;
    rows.push({
      id,
      kind,
      name: '—',
      health: 'could not check',
      healthTone: HEALTH_TONES['could not check'],
      lastContact: null,
      reason: `Could not check ${what}: ${reason}`,
      link,
    });
    for (const unchecked of kinds) uncheckedSubjects.push({ kind: unchecked, subjectId: id });
  };

  /** A list read beside the specification: a row per item, "not configured" when it is empty, one "could not check" row when the read failed. */
  function listedSource<T>(read: OptionalRead<T[]>, kind: string, what: string, none: string, kinds: readonly ConnectorFindingKind[], row: (item: T) => void): void {
    if (!read.ok) couldNotCheck(kind, what, read.reason, intuneLinks.tenantStatus(), kinds);
    else if (read.value.length === 0) notConfigured(kind, none, intuneLinks.tenantStatus());
    else read.value.forEach(row);
  }

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

  // Beside the specification (docs/finding-rules.md, report 1, "Apple tokens and the connector for Active Directory").
  const push = records.applePushCertificate;
  if (!push.ok) {
    couldNotCheck('Apple MDM push certificate', 'the Apple MDM push certificate', push.reason, intuneLinks.tenantStatus(), [
      'apple-push-certificate-expired',
      'apple-token-expiring',
    ]);
  } else if (push.value === null) {
    notConfigured('Apple MDM push certificate', capitalise(pushCertificateVerdict(null, now).reasons[0]!), intuneLinks.tenantStatus());
  } else {
    const certificate = push.value;
    add(
      certificate.id ?? 'applePushNotificationCertificate',
      'Apple MDM push certificate',
      certificate.appleIdentifier ?? 'Apple MDM push certificate',
      pushCertificateVerdict(certificate, now),
      null,
      intuneLinks.tenantStatus(),
      { unhealthy: 'apple-push-certificate-expired', expiring: 'apple-token-expiring' },
    );
  }

  listedSource(
    records.adeTokens,
    'Apple ADE token',
    'the Automated Device Enrollment tokens',
    'No Automated Device Enrollment token is set up',
    ['ade-token-unhealthy', 'apple-token-expiring'],
    (token) =>
      add(
        String(token.id),
        'Apple ADE token',
        token.tokenName ?? token.appleIdentifier ?? String(token.id),
        adeTokenVerdict(token, now, thresholds),
        graphTimestamp(token.lastSuccessfulSyncDateTime),
        intuneLinks.tenantStatus(),
        { unhealthy: 'ade-token-unhealthy', expiring: 'apple-token-expiring' },
      ),
  );
  listedSource(
    records.vppTokens,
    'Apple VPP token',
    'the Apple VPP tokens',
    'No Apple VPP (Apps and Books) token is set up',
    ['vpp-token-unhealthy', 'apple-token-expiring'],
    (token) =>
      add(String(token.id), 'Apple VPP token', vppTokenName(token), vppTokenVerdict(token, now, thresholds), graphTimestamp(token.lastSyncDateTime), intuneLinks.tenantStatus(), {
        unhealthy: 'vpp-token-unhealthy',
        expiring: 'apple-token-expiring',
      }),
  );
  listedSource(
    records.adConnectors,
    'Connector for Active Directory',
    'the Intune Connectors for Active Directory',
    'No Intune Connector for Active Directory is registered (Windows Autopilot needs one only for Microsoft Entra hybrid join)',
    ['ad-connector-unhealthy'],
    (connector) =>
      add(
        String(connector.id),
        'Connector for Active Directory',
        connector.displayName ?? String(connector.id),
        adConnectorVerdict(connector, now, thresholds),
        graphTimestamp(connector.lastConnectionDateTime),
        intuneLinks.tenantStatus(),
        { unhealthy: 'ad-connector-unhealthy' },
      ),
  );

  rows.sort((a, b) => HEALTH_ORDER[a.health as ConnectorHealth] - HEALTH_ORDER[b.health as ConnectorHealth]);
  return {
    state: 'loaded',
    notice: null,
    columns: [
      { key: 'kind', label: 'Integration', available: true, format: 'text' },
      { key: 'name', label: 'Name', available: true, format: 'text', role: 'name' },
      { key: 'health', label: 'Health', available: true, format: 'status', toneKey: 'healthTone' },
      { key: 'lastContact', label: 'Last contact', available: true, format: 'date' },
      { key: 'reason', label: 'Reason', available: true, format: 'text', role: 'wide' },
    ],
    rows,
    findings,
    ...(uncheckedSubjects.length > 0 ? { uncheckedSubjects } : {}),
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
