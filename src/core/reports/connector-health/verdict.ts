import { ageInDays, describeAge, graphTimestamp, plural } from '../graph-values.js';
import { APPLE_EXPIRY_WARNING_DAYS } from './thresholds.js';
import type { ConnectorThresholds } from './thresholds.js';

/**
 * What report 1 says of one integration (docs/finding-rules.md, report 1): its health and why, and
 * the pieces every family's verdict is made of: the tenant-status bands of a last contact, the worst
 * of several verdicts, a version below a floor, an expiry. Each family's own states are in a file of
 * its own (connector-verdicts.ts, partner-verdicts.ts, apple-verdicts.ts).
 */

/** `could not check`: a source read beside the specification that failed (its row says why); never a verdict. */
export type ConnectorHealth = 'healthy' | 'warning' | 'unhealthy' | 'could not check' | 'not configured';

export const HEALTH_ORDER: Record<ConnectorHealth, number> = { unhealthy: 0, warning: 1, 'could not check': 2, healthy: 3, 'not configured': 4 };

export interface Verdict {
  health: ConnectorHealth;
  reasons: string[];
  /** Set when an Apple certificate or token expires within `APPLE_EXPIRY_WARNING_DAYS`: a finding of its own while the row is not unhealthy. */
  expiresSoon?: true;
}

/** Applies the tenant-status bands to a last-contact time. */
export function freshness(last: Date | null, now: Date, thresholds: ConnectorThresholds, what: string): Verdict {
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

export function worst(...verdicts: Verdict[]): Verdict {
  const health = verdicts.reduce<ConnectorHealth>((current, verdict) => (HEALTH_ORDER[verdict.health] < HEALTH_ORDER[current] ? verdict.health : current), 'healthy');
  return { health, reasons: verdicts.flatMap((verdict) => verdict.reasons), ...(verdicts.some((verdict) => verdict.expiresSoon) ? { expiresSoon: true as const } : {}) };
}

export function versionBelow(version: string, minimum: number[]): boolean {
  const parts = version.split('.').map((part) => Number(part));
  if (parts.some((part) => !Number.isInteger(part))) return false;
  for (let index = 0; index < minimum.length; index += 1) {
    const have = parts[index] ?? 0;
    const need = minimum[index]!;
    if (have !== need) return have < need;
  }
  return false;
}

export const HEALTHY: Verdict = { health: 'healthy', reasons: [] };

/** At most a warning: for a state Microsoft does not document as a failure, however stale its last contact. */
export function atMostWarning(verdict: Verdict): Verdict {
  if (verdict.health !== 'unhealthy') return verdict;
  // The reasons then say what was seen, not the verdict the row does not give.
  return { health: 'warning', reasons: verdict.reasons.map((reason) => reason.replace(/ \(unhealthy at [^)]*\)$/, '')) };
}

/** A state value the enum's page does not list: shown as Graph sent it, a warning and never a finding. */
export function undocumentedState(what: string, state: string | null): Verdict {
  return { health: 'warning', reasons: [state ? `${what} is "${state}", a value Microsoft does not document` : `Intune reported no ${what}`] };
}
export const DAY_MS = 86_400_000;
export const day = (date: Date) => date.toISOString().slice(0, 10);

/**
 * An Apple certificate's or token's expiry (docs/finding-rules.md, report 1, "Apple tokens and the
 * connector for Active Directory"): expired is unhealthy, as on the tenant status page; expiring
 * within `APPLE_EXPIRY_WARNING_DAYS` a warning that is a finding of its own (thresholds.ts says why 30).
 */
export function expiry(value: unknown, now: Date, what: string): Verdict {
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
