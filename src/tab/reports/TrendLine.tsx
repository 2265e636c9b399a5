import { makeStyles, tokens } from '@fluentui/react-components';
import type { TrendPoint } from '../../core/reports/report-summary.js';
import type { FormatContext } from '../table/cell-format.js';

const useStyles = makeStyles({
  // currentColor: the line keeps the text's colour in dark and forced-colours modes.
  chart: { color: tokens.colorBrandForeground1, flexShrink: 0, overflow: 'visible' },
});

const WIDTH = 160;
const HEIGHT = 36;
const PAD = 3;

/**
 * The findings each successful load showed, as a small line over time (the report's history): a
 * picture of better or worse, with the figures in its accessible name. Nothing is drawn before a
 * second load.
 */
export function TrendLine({ points, format }: { points: readonly TrendPoint[]; format: FormatContext }) {
  const styles = useStyles();
  if (points.length < 2) return null;
  const times = points.map((point) => Date.parse(point.at));
  const first = times[0]!;
  const span = Math.max(1, times.at(-1)! - first);
  // Scaled from the fewest findings to the most, so that a change of two in sixty shows; a flat history is a line across the middle.
  const counts = points.map((point) => point.findings);
  const fewest = Math.min(...counts);
  const range = Math.max(...counts) - fewest;
  const coordinates = points.map((point, index) => {
    const x = PAD + ((times[index]! - first) / span) * (WIDTH - 2 * PAD);
    const y = range === 0 ? HEIGHT / 2 : HEIGHT - PAD - ((point.findings - fewest) / range) * (HEIGHT - 2 * PAD);
    return `${x.toFixed(1)},${y.toFixed(1)}`;
  });
  const number = new Intl.NumberFormat(format.locale);
  const day = (at: number) => new Date(at).toLocaleDateString(format.locale, { dateStyle: 'medium' });
  const label = `Findings per load, ${points.length} loads from ${day(first)} to ${day(times.at(-1)!)}: from ${number.format(points[0]!.findings)} to ${number.format(points.at(-1)!.findings)}`;
  return (
    <svg className={styles.chart} width={WIDTH} height={HEIGHT} viewBox={`0 0 ${WIDTH} ${HEIGHT}`} role="img" aria-label={label} data-trend-points={points.length}>
      <title>{label}</title>
      <polyline points={coordinates.join(' ')} fill="none" stroke="currentColor" strokeWidth={2} strokeLinejoin="round" strokeLinecap="round" />
      <circle cx={coordinates.at(-1)!.split(',')[0]} cy={coordinates.at(-1)!.split(',')[1]} r={3} fill="currentColor" />
    </svg>
  );
}
