import { Caption1, Subtitle2, makeStyles, mergeClasses, tokens } from '@fluentui/react-components';
import { useMemo } from 'react';
import type { ReportChart, ReportResult, ReportRow } from '../../core/reports/report-model.js';
import { chartAxis } from './chart-axis.js';
import { VISUALLY_HIDDEN } from './visually-hidden.js';

const CHART_ITEMS = 8;

const useStyles = makeStyles({
  charts: { display: 'grid', gridTemplateColumns: 'repeat(auto-fit, minmax(min(320px, 100%), 1fr))', gap: tokens.spacingHorizontalL },
  chart: {
    margin: 0,
    padding: tokens.spacingHorizontalM,
    border: `${tokens.strokeWidthThin} solid ${tokens.colorNeutralStroke2}`,
    borderRadius: tokens.borderRadiusMedium,
    display: 'flex',
    flexDirection: 'column',
    gap: tokens.spacingVerticalS,
  },
  // Label | track: the track is where bars, grid lines, the threshold and the axis are measured.
  plot: {
    display: 'grid',
    gridTemplateColumns: 'minmax(6em, max-content) minmax(0, 1fr)',
    columnGap: tokens.spacingHorizontalS,
    rowGap: tokens.spacingVerticalXS,
    alignItems: 'center',
    // Room above the first bar for the threshold's label.
    paddingTop: tokens.spacingVerticalL,
  },
  label: { ...textStyle(), textAlign: 'end', maxWidth: '14em', overflowWrap: 'anywhere' },
  // Above the grid lines, below the threshold.
  track: { position: 'relative', zIndex: 1, height: '20px' },
  bar: {
    position: 'absolute',
    top: '2px',
    bottom: '2px',
    left: 0,
    borderTopRightRadius: tokens.borderRadiusSmall,
    borderBottomRightRadius: tokens.borderRadiusSmall,
    // Forced colours paint backgrounds over with the page's: the bar keeps a fill in the text colour.
    '@media (forced-colors: active)': { forcedColorAdjust: 'none', backgroundColor: 'CanvasText' },
  },
  value: {
    ...textStyle(),
    position: 'absolute',
    top: '50%',
    transform: 'translateY(-50%)',
    paddingLeft: tokens.spacingHorizontalXS,
    fontWeight: tokens.fontWeightSemibold,
    whiteSpace: 'nowrap',
  },
  // Grid lines, the threshold and the axis share the track column, across every bar's row.
  overlay: { gridColumn: '2', position: 'relative', alignSelf: 'stretch', pointerEvents: 'none' },
  above: { zIndex: 2 },
  heading: { margin: 0 },
  gridLine: { position: 'absolute', top: 0, bottom: 0, borderLeftWidth: tokens.strokeWidthThin, borderLeftStyle: 'solid', borderLeftColor: tokens.colorNeutralStroke2 },
  threshold: {
    position: 'absolute',
    bottom: 0,
    top: `calc(-1 * ${tokens.spacingVerticalL})`,
    borderLeftWidth: tokens.strokeWidthThick,
    borderLeftStyle: 'dashed',
    borderLeftColor: tokens.colorNeutralForeground2,
  },
  thresholdLabel: {
    ...textStyle(),
    position: 'absolute',
    top: `calc(-1 * ${tokens.spacingVerticalL} - 2px)`,
    transform: 'translateX(-50%)',
    whiteSpace: 'nowrap',
    paddingLeft: tokens.spacingHorizontalXXS,
    paddingRight: tokens.spacingHorizontalXXS,
    backgroundColor: tokens.colorNeutralBackground1,
  },
  axis: { gridColumn: '2', position: 'relative', height: '1.5em', borderTopWidth: tokens.strokeWidthThin, borderTopStyle: 'solid', borderTopColor: tokens.colorNeutralStroke1 },
  tick: { ...textStyle(), position: 'absolute', top: '2px', transform: 'translateX(-50%)', color: tokens.colorNeutralForeground2 },
  unit: { gridColumn: '2', textAlign: 'center', color: tokens.colorNeutralForeground2 },
  srOnly: VISUALLY_HIDDEN,
});

function textStyle() {
  return { fontSize: tokens.fontSizeBase200, lineHeight: tokens.lineHeightBase200, color: tokens.colorNeutralForeground1 };
}

interface Bar {
  label: string;
  value: number;
}

/** A value the bars are measured against, drawn as a dashed line across the chart. */
interface Threshold {
  value: number;
  label: string;
}

/** The largest values of one numeric cell among rows of one section (any row, for a report with one table), biggest first. */
export function topBars(rows: readonly ReportRow[], section: string | undefined, labelKey: string, valueKey: string, count = CHART_ITEMS): Bar[] {
  return rows
    .filter((row) => (section === undefined || row.section === section) && typeof row[valueKey] === 'number' && (row[valueKey] as number) > 0)
    .map((row) => ({ label: String(row[labelKey] ?? '—'), value: row[valueKey] as number }))
    .sort((a, b) => b.value - a.value)
    .slice(0, count);
}

/**
 * One horizontal bar chart, in HTML: the labels and figures are text that wraps, zooms and keeps
 * to the theme (forced colours too), and the threshold is a line on the same scale as the bars.
 * The figures are also a list for screen readers; the drawing itself is hidden from them.
 */
function BarChart({ title, bars, unit, color, threshold, locale }: { title: string; bars: Bar[]; unit: string; color: string; threshold?: Threshold | undefined; locale: string }) {
  const styles = useStyles();
  const { end, ticks } = chartAxis(Math.max(threshold?.value ?? 0, ...bars.map((bar) => bar.value)));
  const at = (value: number) => `${(value / end) * 100}%`;
  return (
    <figure className={styles.chart} aria-label={title}>
      <Subtitle2 as="h3" className={styles.heading}>
        {title}
      </Subtitle2>
      {bars.length === 0 ? (
        <p>No data to chart.</p>
      ) : (
        <div className={styles.plot} aria-hidden="true" data-chart-end={end}>
          {bars.map((bar, index) => (
            // By position: two manufacturers may name a model alike.
            <div key={index} style={{ display: 'contents' }}>
              <span className={styles.label} style={{ gridRow: index + 1 }}>
                {bar.label}
              </span>
              <span className={styles.track} style={{ gridRow: index + 1, gridColumn: 2 }}>
                <span className={styles.bar} style={{ width: at(bar.value), backgroundColor: color }} data-bar={bar.value} />
                <span className={styles.value} style={{ insetInlineStart: at(bar.value) }}>
                  {bar.value.toLocaleString(locale)}
                </span>
              </span>
            </div>
          ))}
          <span className={styles.overlay} style={{ gridRow: `1 / ${bars.length + 1}` }}>
            {ticks.map((tick) => (
              <span key={tick} className={styles.gridLine} style={{ insetInlineStart: at(tick) }} />
            ))}
          </span>
          {threshold ? (
            <span className={mergeClasses(styles.overlay, styles.above)} style={{ gridRow: `1 / ${bars.length + 1}` }}>
              <span className={styles.threshold} style={{ insetInlineStart: at(threshold.value) }} data-threshold={threshold.value} />
              <span className={styles.thresholdLabel} style={{ insetInlineStart: at(threshold.value) }}>
                {threshold.label}
              </span>
            </span>
          ) : null}
          <span className={styles.axis} style={{ gridRow: bars.length + 1 }}>
            {ticks.map((tick) => (
              <span key={tick} className={styles.tick} style={{ insetInlineStart: at(tick) }}>
                {tick.toLocaleString(locale)}
              </span>
            ))}
          </span>
          <Caption1 className={styles.unit} style={{ gridRow: bars.length + 2 }}>
            {unit}
          </Caption1>
        </div>
      )}
      {/* The same figures as text, for screen readers and for anyone who would rather read them. */}
      <figcaption>
        <ol aria-label={`${title}, as a list`} className={styles.srOnly}>
          {bars.map((bar, index) => (
            <li key={index}>{`${bar.label}: ${bar.value} ${unit}${threshold && bar.value > threshold.value ? ` (over the ${threshold.value} ${unit} threshold)` : ''}`}</li>
          ))}
          {threshold ? <li>{`${threshold.label}: the threshold, ${threshold.value} ${unit}`}</li> : null}
        </ol>
      </figcaption>
    </figure>
  );
}

/** Bars as loud as the verdict the chart stands for; forced colours draw them in the text colour. */
const TONE_COLOURS: Record<ReportChart['tone'], string> = {
  warning: tokens.colorPaletteDarkOrangeBorderActive,
  danger: tokens.colorPaletteRedBorderActive,
};

/** A chart's threshold, when the result carries its value. */
function chartThreshold(chart: ReportChart, thresholds: ReportResult['thresholds']): Threshold | undefined {
  if (!chart.threshold) return undefined;
  const value: unknown = thresholds?.[chart.threshold.key];
  return typeof value === 'number' ? { value, label: chart.threshold.label.replace('{value}', String(value)) } : undefined;
}

/**
 * A report at a glance, where a person would rather look than read: the charts its catalogue entry
 * names (report 6: the slowest models against the slow-start threshold, the apps that crash most).
 */
export function ReportCharts({
  charts,
  rows,
  thresholds,
  locale,
}: {
  charts: readonly ReportChart[];
  rows: readonly ReportRow[];
  thresholds: ReportResult['thresholds'];
  locale: string;
}) {
  const styles = useStyles();
  // The rows hold every device too: scanned once per report, not on every keystroke in the filter.
  const bars = useMemo(() => charts.map((chart) => topBars(rows, chart.section, chart.labelKey, chart.valueKey)), [charts, rows]);
  return (
    <div className={styles.charts}>
      {charts.map((chart, index) => (
        <BarChart
          key={chart.id}
          title={chart.title}
          bars={bars[index] ?? []}
          unit={chart.unit}
          locale={locale}
          color={TONE_COLOURS[chart.tone]}
          threshold={chartThreshold(chart, thresholds)}
        />
      ))}
    </div>
  );
}
