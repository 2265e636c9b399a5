import type { CellValue, ReportColumn, ReportRow } from '../../core/reports/report-model.js';

export type CellFormat = 'text' | 'number' | 'seconds' | 'date' | 'boolean';

const ISO_TIMESTAMP = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:\d{2})$/;

/**
 * How a column's cells read best. Durations are named by their key (the reports call them
 * `…Seconds`), timestamps by their shape, since the JSON contract carries them as ISO strings.
 */
export function columnFormat(column: ReportColumn, rows: readonly ReportRow[]): CellFormat {
  if (/Seconds$/.test(column.key)) return 'seconds';
  let sample: CellValue = null;
  for (const row of rows) {
    const value = row[column.key];
    if (value !== null && value !== undefined) {
      sample = value;
      break;
    }
  }
  if (typeof sample === 'number') return 'number';
  if (typeof sample === 'boolean') return 'boolean';
  if (typeof sample === 'string' && ISO_TIMESTAMP.test(sample)) return 'date';
  return 'text';
}

export interface FormattedCell {
  text: string;
  /** The precise value, where the text rounds or relates it (shown on hover and read by screen readers). */
  detail?: string;
}

export interface FormatContext {
  now: number;
  locale: string;
}

const formatters = new Map<string, { number: Intl.NumberFormat; seconds: Intl.NumberFormat; date: Intl.DateTimeFormat; relative: Intl.RelativeTimeFormat }>();

function formattersFor(locale: string) {
  let set = formatters.get(locale);
  if (!set) {
    set = {
      number: new Intl.NumberFormat(locale, { maximumFractionDigits: 2 }),
      seconds: new Intl.NumberFormat(locale, { minimumFractionDigits: 1, maximumFractionDigits: 1 }),
      date: new Intl.DateTimeFormat(locale, { dateStyle: 'medium', timeStyle: 'short' }),
      relative: new Intl.RelativeTimeFormat(locale, { numeric: 'auto' }),
    };
    formatters.set(locale, set);
  }
  return set;
}

const RELATIVE_STEPS: Array<[Intl.RelativeTimeFormatUnit, number]> = [
  ['second', 60],
  ['minute', 60],
  ['hour', 24],
  ['day', 30],
  ['month', 12],
  ['year', Number.POSITIVE_INFINITY],
];

/** "3 days ago", "in 2 hours": the unit grows with the distance, as people say it. */
export function relativeTime(timestamp: number, context: FormatContext): string {
  let amount = (timestamp - context.now) / 1000;
  for (const [unit, next] of RELATIVE_STEPS) {
    if (Math.abs(amount) < next) return formattersFor(context.locale).relative.format(Math.round(amount), unit);
    amount /= next;
  }
  return formattersFor(context.locale).date.format(timestamp);
}

export function formatCell(value: CellValue | undefined, format: CellFormat, context: FormatContext): FormattedCell {
  if (value === null || value === undefined || value === '') return { text: '—', detail: 'No value' };
  const { number, seconds, date } = formattersFor(context.locale);
  switch (format) {
    case 'seconds':
      return typeof value === 'number' ? { text: `${seconds.format(value)} s` } : { text: String(value) };
    case 'number':
      return typeof value === 'number' ? { text: number.format(value) } : { text: String(value) };
    case 'boolean':
      return { text: value === true ? 'Yes' : value === false ? 'No' : String(value) };
    case 'date': {
      const timestamp = typeof value === 'string' ? Date.parse(value) : Number.NaN;
      if (Number.isNaN(timestamp)) return { text: String(value) };
      return { text: relativeTime(timestamp, context), detail: date.format(timestamp) };
    }
    case 'text':
      return { text: String(value) };
  }
}
