import { describe, expect, it } from 'vitest';
import { securityPostureReport } from '../../../../src/core/reports/security-posture/definition.js';
import { LOADING_TEXT } from '../../../../src/core/reports/report-model.js';

describe('report 3 as it says of itself', () => {
  it("uses the specification's words while pending: Loading... at start, Loading... while fetching", () => {
    expect(securityPostureReport.pending).toEqual({ starting: LOADING_TEXT, fetching: LOADING_TEXT });
  });
});
