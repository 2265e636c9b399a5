import { InMemoryDemoBaseline } from '../../src/app/baseline-records.js';
import { demoBaselineBook } from '../../src/core/reports/baseline-drift/demo.js';

/**
 * The demo's approved baseline (report 8; src/core/reports/baseline-drift/demo.ts) for a load made
 * through the registry alone, as the app's services hand it on the demo tenant: without it, report
 * 8 keeps no baseline and is empty.
 */
export function demoApprovedBaseline(now?: () => Date): InMemoryDemoBaseline {
  return new InMemoryDemoBaseline(demoBaselineBook, now);
}
