import { describe, expect, it } from 'vitest';
import { connectorHealthReport } from '../../../../src/core/reports/connector-health/definition.js';
import { LOADING_TEXT } from '../../../../src/core/reports/report-model.js';

describe('report 1 as it says of itself', () => {
  it("uses the specification's words while pending: Loading... at start, Loading... while fetching", () => {
    expect(connectorHealthReport.pending).toEqual({ starting: LOADING_TEXT, fetching: LOADING_TEXT });
  });
});
