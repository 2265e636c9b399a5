import type { CellValue, ReportColumn } from '../../core/reports/report-model.js';

/** What a `date` cell holds when it holds a time: ISO 8601 with a zone, as Graph writes it. */
const ISO_TIMESTAMP = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:\d{2})$/;

export interface FormattedCell {
  text: string;
  /** The precise value, where the text rounds or relates it (shown on hover and read by screen readers). */
  detail?: string;
}

export interface FormatContext {
  now: number;
  locale: string;
}

const formatters = new Map<
  string,
  { count: Intl.NumberFormat; number: Intl.NumberFormat; seconds: Intl.NumberFormat; minutes: Intl.NumberFormat; date: Intl.DateTimeFormat; relative: Intl.RelativeTimeFormat }
>();

function formattersFor(locale: string) {
  let set = formatters.get(locale);
  if (!set) {
    set = {
      count: new Intl.NumberFormat(locale, { maximumFractionDigits: 0 }),
      number: new Intl.NumberFormat(locale, { maximumFractionDigits: 2 }),
      seconds: new Intl.NumberFormat(locale, { style: 'unit', unit: 'second', unitDisplay: 'narrow', minimumFractionDigits: 1, maximumFractionDigits: 1 }),
      minutes: new Intl.NumberFormat(locale, { style: 'unit', unit: 'minute', unitDisplay: 'short', maximumFractionDigits: 0 }),
      date: new Intl.DateTimeFormat(locale, { dateStyle: 'medium', timeStyle: 'short' }),
      relative: new Intl.RelativeTimeFormat(locale, { numeric: 'auto' }),
    };
    formatters.set(locale, set);
  }
  return set;
}

/** How far ahead of the viewer's clock a past event may seem, from clock skew and timing. */
const FUTURE_SKEW_SECONDS = 300;

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
  // A time just ahead of the viewer's clock (the server's clock runs a little ahead, or the page's
  // "now" was taken before the report arrived) happened now, not "in 2 seconds".
  if (amount > 0 && amount < FUTURE_SKEW_SECONDS) amount = 0;
  for (const [unit, next] of RELATIVE_STEPS) {
    if (Math.abs(amount) < next) return formattersFor(context.locale).relative.format(Math.round(amount), unit);
    amount /= next;
  }
  return formattersFor(context.locale).date.format(timestamp);
}

/**
 * A cell as its column's format says it reads (docs/contract.md, "Columns"). A value that is not of
 * the format's kind (a `date` column's `missing`) reads as the text it is.
 */
export function formatCell(value: CellValue | undefined, column: Pick<ReportColumn, 'format' | 'unit'>, context: FormatContext): FormattedCell {
  // The dash alone: a date cell shows its detail under its text, which read "— No value".
  if (value === null || value === undefined || value === '') return { text: '—' };
  const formats = formattersFor(context.locale);
  switch (column.format) {
    case 'duration': {
      if (typeof value !== 'number') return { text: String(value) };
      return { text: (column.unit === 'minutes' ? formats.minutes : formats.seconds).format(value) };
    }
    case 'count':
      return typeof value === 'number' ? { text: formats.count.format(value) } : { text: String(value) };
    case 'number':
      return typeof value === 'number' ? { text: formats.number.format(value) } : { text: String(value) };
    case 'date': {
      const timestamp = typeof value === 'string' && ISO_TIMESTAMP.test(value) ? Date.parse(value) : Number.NaN;
      if (Number.isNaN(timestamp)) return { text: String(value) };
      return { text: relativeTime(timestamp, context), detail: formats.date.format(timestamp) };
    }
    case 'status':
    case 'text':
      return { text: typeof value === 'boolean' ? (value ? 'Yes' : 'No') : String(value) };
  }
}

/** Whether a column's cells are numbers, aligned to the right. */
export function isNumeric(column: Pick<ReportColumn, 'format'>): boolean {
  return column.format === 'duration' || column.format === 'count' || column.format === 'number';
}
