import { describe, expect, it } from 'vitest';
import { escrowGapsReport } from '../../../../src/core/reports/escrow-gaps/definition.js';
import { INITIALIZING_TEXT } from '../../../../src/core/reports/report-model.js';

describe('report 4 as it says of itself', () => {
  it("uses the specification's words while pending: Initializing data at start, Initializing data while fetching", () => {
    expect(escrowGapsReport.pending).toEqual({ starting: INITIALIZING_TEXT, fetching: INITIALIZING_TEXT });
  });
});
