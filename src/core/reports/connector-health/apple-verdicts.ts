import { asNumber, asString, graphTimestamp } from '../graph-values.js';
import type { AdeToken, ApplePushCertificate, VppToken } from './load.js';
import { PUSH_CERTIFICATE_GRACE_DAYS } from './thresholds.js';
import type { ConnectorThresholds } from './thresholds.js';
import { DAY_MS, HEALTHY, day, expiry, freshness, undocumentedState, worst } from './verdict.js';
import type { Verdict } from './verdict.js';

/**
 * Report 1's verdicts on Apple's certificate and tokens (docs/finding-rules.md, report 1, "Apple
 * tokens and the connector for Active Directory"): the MDM push certificate, the Automated Device
 * Enrollment tokens and the VPP tokens, and the name a VPP token's row goes by.
 */

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
 * `/v1.0` gives a VPP token no name of its own (`displayName` and `locationName` are beta's): the
 * organisation, and its expiry date to tell one location's token from another's.
 */
export function vppTokenName(token: VppToken): string {
  const owner = token.organizationName ?? token.appleId ?? String(token.id);
  const expires = graphTimestamp(token.expirationDateTime);
  return expires ? `${owner} (expires ${day(expires)})` : owner;
}
