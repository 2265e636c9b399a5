import { describe, expect, it } from 'vitest';
import { adminApprovalReport } from '../../../../src/core/reports/admin-approval/definition.js';
import { INITIALIZING_TEXT, LOADING_TEXT } from '../../../../src/core/reports/report-model.js';

describe('report 5 as it says of itself', () => {
  it("uses the specification's words while pending: Initializing data at start, Loading... while fetching", () => {
    expect(adminApprovalReport.pending).toEqual({ starting: INITIALIZING_TEXT, fetching: LOADING_TEXT });
  });
});
