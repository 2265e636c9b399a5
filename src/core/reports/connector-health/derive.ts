/** Report 1's rules (docs/finding-rules.md): records in, table and findings out, no I/O. */

import { ageInDays, asNumber, asString, capitalise, describeAge, graphTimestamp, plural } from '../graph-values.js';
import { intuneLinks } from '../intune-links.js';
import type { CellTone, DeriveContext, DerivedReport, FindingDraft, ReportRow, UncheckedSubject } from '../report-model.js';
import type { OptionalRead } from '../optional-read.js';
import type { ConnectorFindingKind } from './finding-kinds.js';
import type {
  AdConnector,
  AdeToken,
  ApplePushCertificate,
  AutopilotSettings,
  ConnectorRecords,
  ManagedGooglePlay,
  MtdConnector,
  NdesConnector,
  PartnerIntegration,
  VppToken,
} from './load.js';
import { AD_CONNECTOR_MINIMUM_VERSION, APPLE_EXPIRY_WARNING_DAYS, PUSH_CERTIFICATE_GRACE_DAYS } from './thresholds.js';
import type { ConnectorThresholds } from './thresholds.js';

/** `could not check`: a source read beside the specification that failed (its row says why); never a verdict. */
export type ConnectorHealth = 'healthy' | 'warning' | 'unhealthy' | 'could not check' | 'not configured';

const HEALTH_ORDER: Record<ConnectorHealth, number> = { unhealthy: 0, warning: 1, 'could not check': 2, healthy: 3, 'not configured': 4 };

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
  /** Set when an Apple certificate or token expires within `APPLE_EXPIRY_WARNING_DAYS`: a finding of its own while the row is not unhealthy. */
  expiresSoon?: true;
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
  return { health, reasons: verdicts.flatMap((verdict) => verdict.reasons), ...(verdicts.some((verdict) => verdict.expiresSoon) ? { expiresSoon: true as const } : {}) };
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

const DAY_MS = 86_400_000;
const day = (date: Date) => date.toISOString().slice(0, 10);

/**
 * An Apple certificate's or token's expiry (docs/finding-rules.md, report 1, "Apple tokens and the
 * connector for Active Directory"): expired is unhealthy, as on the tenant status page; expiring
 * within `APPLE_EXPIRY_WARNING_DAYS` a warning that is a finding of its own (thresholds.ts says why 30).
 */
function expiry(value: unknown, now: Date, what: string): Verdict {
  const when = graphTimestamp(value);
  if (!when) return { health: 'warning', reasons: [`Intune reported no expiry date for this ${what}`] };
  const daysLeft = (when.getTime() - now.getTime()) / DAY_MS;
  if (daysLeft <= 0) return { health: 'unhealthy', reasons: [`${what} expired on ${day(when)}`] };
  if (daysLeft <= APPLE_EXPIRY_WARNING_DAYS) {
    return {
      health: 'warning',
      reasons: [`${what} expires on ${day(when)}, in ${plural(Math.ceil(daysLeft), 'day')} (warning within ${APPLE_EXPIRY_WARNING_DAYS} days)`],
      expiresSoon: true,
    };
  }
  return HEALTHY;
}

/**
 * The Apple MDM push certificate (learn.microsoft.com/graph/api/resources/intune-devices-applepushnotificationcertificate).
 * null: none set up (404, or Graph's empty record): the tenant does not manage Apple devices.
 * Expired, Intune can no longer reach Apple devices; within the 30-day grace period it can still be
 * renewed, after it a new certificate means enrolling every Apple device again
 * (learn.microsoft.com/intune/intune-service/enrollment/apple-mdm-push-certificate-get,
 * learn.microsoft.com/intune-education/renew-ios-certificate-token).
 */
export function pushCertificateVerdict(certificate: ApplePushCertificate | null, now: Date): Verdict {
  if (!certificate) return { health: 'not configured', reasons: ['no Apple MDM push certificate is set up: this tenant does not manage Apple devices'] };
  const verdict = expiry(certificate.expirationDateTime, now, 'certificate');
  const expired = graphTimestamp(certificate.expirationDateTime);
  if (verdict.health === 'unhealthy' && expired) {
    const graceEnds = new Date(expired.getTime() + PUSH_CERTIFICATE_GRACE_DAYS * DAY_MS);
    verdict.reasons.push(
      graceEnds.getTime() > now.getTime()
        ? `renew it with the same Apple ID by ${day(graceEnds)} (the ${PUSH_CERTIFICATE_GRACE_DAYS}-day grace period), or every Apple device must enrol again`
        : `the ${PUSH_CERTIFICATE_GRACE_DAYS}-day grace period to renew it ended on ${day(graceEnds)}`,
    );
  }
  // `certificateUploadStatus` is a free string Microsoft does not enumerate; only a stated failure reason is shown.
  const failure = asString(certificate.certificateUploadFailureReason);
  return failure ? worst(verdict, { health: 'warning', reasons: [`the last certificate upload failed: ${failure}`] }) : verdict;
}

/**
 * An Automated Device Enrollment token, `depOnboardingSetting` (beta only;
 * learn.microsoft.com/graph/api/resources/intune-enrollment-deponboardingsetting?view=graph-rest-beta):
 * its expiry, its last successful sync in the tenant status bands, and Apple's error code of the
 * last sync. Microsoft publishes no table of the codes; 0 is read as no error.
 */
export function adeTokenVerdict(token: AdeToken, now: Date, thresholds: ConnectorThresholds): Verdict {
  const code = asNumber(token.lastSyncErrorCode);
  const syncError: Verdict = code !== null && code !== 0 ? { health: 'warning', reasons: [`Apple reported error ${code} at the last sync`] } : HEALTHY;
  return worst(expiry(token.tokenExpirationDateTime, now, 'token'), freshness(graphTimestamp(token.lastSuccessfulSyncDateTime), now, thresholds, 'synced'), syncError);
}

/**
 * `vppTokenState` (learn.microsoft.com/graph/api/resources/intune-onboarding-vpptokenstate?view=graph-rest-beta;
 * `/v1.0`'s enum lacks `duplicateLocationId`) and what Learn says of each
 * (learn.microsoft.com/intune/intune-service/apps/vpp-apps-ios): a token not renewed "will show
 * invalid"; one "Assigned to external MDM" must be removed from the other MDM before Intune can use
 * it; a "Duplicate" one stops syncing until the duplicate is removed.
 */
const VPP_STATES: Readonly<Record<string, Verdict>> = {
  valid: HEALTHY,
  expired: { health: 'unhealthy', reasons: ['Intune reports the token as expired'] },
  invalid: { health: 'unhealthy', reasons: ["Intune reports the token as invalid: renew it (the Apple account's password changed, or it left the organisation)"] },
  assignedToExternalMDM: { health: 'unhealthy', reasons: ['the token is assigned to another MDM service: Intune cannot use it until it is taken back'] },
  duplicateLocationId: { health: 'warning', reasons: ['another token is uploaded for the same location: remove the duplicate so this one syncs again'] },
  unknown: { health: 'warning', reasons: ["Intune reports the token's state as unknown"] },
};

/** `vppTokenSyncStatus`: `none`, `inProgress`, `completed`, and `failed`, the one failure, a warning: the last sync's age says how long. */
const VPP_SYNC_STATES: Readonly<Record<string, Verdict>> = {
  none: HEALTHY,
  inProgress: HEALTHY,
  completed: HEALTHY,
  failed: { health: 'warning', reasons: ['the last sync with Apple failed'] },
};

export function vppTokenVerdict(token: VppToken, now: Date, thresholds: ConnectorThresholds): Verdict {
  const state = asString(token.state);
  const stateVerdict = (state && VPP_STATES[state]) || undocumentedState('token state', state);
  const sync = asString(token.lastSyncStatus);
  const syncVerdict = (sync && VPP_SYNC_STATES[sync]) || undocumentedState('sync status', sync);
  return worst(stateVerdict, expiry(token.expirationDateTime, now, 'token'), syncVerdict, freshness(graphTimestamp(token.lastSyncDateTime), now, thresholds, 'synced'));
}

/**
 * `deviceManagementDomainJoinConnectorState` (beta only;
 * learn.microsoft.com/graph/api/resources/intune-odj-devicemanagementdomainjoinconnectorstate?view=graph-rest-beta):
 * `active` "actively pinging Intune", `error` "no heart-beat from connector from last one hour",
 * `inactive` "no heart-beat … from last 5 days". Both are a connector that is not working.
 */
const AD_CONNECTOR_STATES: Readonly<Record<string, Verdict>> = {
  active: HEALTHY,
  error: { health: 'unhealthy', reasons: ['Intune reports an error: no heartbeat from this connector for more than an hour'] },
  inactive: { health: 'unhealthy', reasons: ['inactive: no heartbeat from this connector for more than 5 days (Intune removes inactive connectors after 30 days)'] },
};

/**
 * `/v1.0` gives a VPP token no name of its own (`displayName` and `locationName` are beta's): the
 * organisation, and its expiry date to tell one location's token from another's.
 */
function vppTokenName(token: VppToken): string {
  const owner = token.organizationName ?? token.appleId ?? String(token.id);
  const expires = graphTimestamp(token.expirationDateTime);
  return expires ? `${owner} (expires ${day(expires)})` : owner;
}

/** An Intune Connector for Active Directory: its state, its version against the supported floor, and its last contact in the bands. */
export function adConnectorVerdict(connector: AdConnector, now: Date, thresholds: ConnectorThresholds): Verdict {
  const state = asString(connector.state);
  const stateVerdict = (state && AD_CONNECTOR_STATES[state]) || undocumentedState('connector state', state);
  const version = asString(connector.version);
  const versionVerdict: Verdict =
    version && versionBelow(version, [...AD_CONNECTOR_MINIMUM_VERSION])
      ? {
          health: 'unhealthy',
          reasons: [`version ${version} is deprecated and can no longer process enrollment requests (${AD_CONNECTOR_MINIMUM_VERSION.join('.')} or later is needed)`],
        }
      : HEALTHY;
  return worst(stateVerdict, versionVerdict, freshness(graphTimestamp(connector.lastConnectionDateTime), now, thresholds, 'connected'));
}

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
      { key: 'name', label: 'Name', available: true, format: 'text' },
      { key: 'health', label: 'Health', available: true, format: 'status', toneKey: 'healthTone' },
      { key: 'lastContact', label: 'Last contact', available: true, format: 'date' },
      { key: 'reason', label: 'Reason', available: true, format: 'text' },
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
