import { describe, expect, it } from 'vitest';
import { assignmentHygieneReport } from '../../../../src/core/reports/assignment-hygiene/definition.js';
import { LOADING_TEXT } from '../../../../src/core/reports/report-model.js';

describe('report 2 as it says of itself', () => {
  it("uses the specification's words while pending: Loading... at start, Loading... while fetching", () => {
    expect(assignmentHygieneReport.pending).toEqual({ starting: LOADING_TEXT, fetching: LOADING_TEXT });
  });
});
