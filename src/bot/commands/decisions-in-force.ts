import type { TriageDecision } from '../../core/triage/triage-book.js';
import type { BotServices } from '../bot-services.js';

/**
 * Findings accepted or snoozed now, by fingerprint, which the cards count apart; null when they
 * cannot be read (a card then counts every finding and says so).
 */
export async function decisionsInForce(services: Pick<BotServices, 'triage' | 'log'>): Promise<ReadonlyMap<string, TriageDecision> | null> {
  return services.triage ? services.triage.inForceOrNull((line) => services.log(line)) : new Map();
}
