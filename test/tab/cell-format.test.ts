import { describe, expect, it } from 'vitest';
import { formatCell, relativeTime } from '../../src/tab/table/cell-format.js';

const context = { now: Date.parse('2026-11-23T09:00:00Z'), locale: 'en-US' };

describe('cells as their columns say', () => {
  it("reads a time just ahead of the viewer's clock as now, and the past as people say it", () => {
    expect(relativeTime(context.now + 2_000, context)).toBe('now');
    expect(relativeTime(context.now - 3 * 86_400_000, context)).toBe('3 days ago');
    expect(relativeTime(context.now + 2 * 86_400_000, context)).toBe('in 2 days');
  });

  it("formats by the column's format, not by the value's shape", () => {
    expect(formatCell(15570, { format: 'count' }, context).text).toBe('15,570');
    expect(formatCell(42.25, { format: 'duration', unit: 'seconds' }, context).text).toBe('42.3s');
    expect(formatCell(1234, { format: 'duration', unit: 'minutes' }, context).text).toBe('1,234 min');
    expect(formatCell('missing', { format: 'date' }, context)).toEqual({ text: 'missing' });
    expect(formatCell('2026-11-20T09:00:00.000Z', { format: 'date' }, context)).toMatchObject({ text: '3 days ago' });
    expect(formatCell('2026-11-20T09:00:00.000Z', { format: 'text' }, context).text).toBe('2026-11-20T09:00:00.000Z');
    expect(formatCell(null, { format: 'count' }, context).text).toBe('—');
  });
});
