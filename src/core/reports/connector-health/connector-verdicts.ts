import { ageInDays, asNumber, asString, graphTimestamp } from '../graph-values.js';
import type { AdConnector, MtdConnector, NdesConnector } from './load.js';
import { AD_CONNECTOR_MINIMUM_VERSION } from './thresholds.js';
import type { ConnectorThresholds } from './thresholds.js';
import { HEALTHY, atMostWarning, freshness, undocumentedState, versionBelow, worst } from './verdict.js';
import type { Verdict } from './verdict.js';

/**
 * Report 1's verdicts on Microsoft's connectors (docs/finding-rules.md, report 1): the certificate
 * connector, the Mobile Threat Defense connectors and the Intune Connector for Active Directory.
 */

/** Intune's support floor for the certificate connector (learn.microsoft.com/mem/intune/protect/certificate-connector-overview#lifecycle). */
const MINIMUM_CERTIFICATE_CONNECTOR_VERSION = [6, 2406, 0, 1001];

/** Mobile Threat Defense partners by connector id (the ids Intune uses; Maester and Microsoft365DSC carry the same list). */
export const MTD_PARTNERS: Record<string, string> = {
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
export const DEFENDER_CONNECTOR_ID = 'fc780465-2017-40d4-a0c5-307022471b92';

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
