import { describe, expect, it } from 'vitest';
import { startupReliabilityReport } from '../../../../src/core/reports/startup-reliability/definition.js';
import { INITIALIZING_TEXT } from '../../../../src/core/reports/report-model.js';

describe('report 6 as it says of itself', () => {
  it("uses the specification's words while pending: Initializing data at start, Initializing data while fetching", () => {
    expect(startupReliabilityReport.pending).toEqual({ starting: INITIALIZING_TEXT, fetching: INITIALIZING_TEXT });
  });
});
