import { HorizontalBarChartWithAxis } from '@fluentui/react-charts';
import type { HorizontalBarChartWithAxisDataPoint } from '@fluentui/react-charts';
import { Subtitle2, makeStyles, tokens } from '@fluentui/react-components';
import type { ReportRow } from '../../core/reports/report-model.js';

const CHART_ITEMS = 8;

const useStyles = makeStyles({
  charts: { display: 'grid', gridTemplateColumns: 'repeat(auto-fit, minmax(320px, 1fr))', gap: tokens.spacingHorizontalL },
  chart: {
    margin: 0,
    padding: tokens.spacingHorizontalM,
    border: `${tokens.strokeWidthThin} solid ${tokens.colorNeutralStroke2}`,
    borderRadius: tokens.borderRadiusMedium,
    // Forced colours repaint text but not an SVG's fill: the chart library's axis labels keep the
    // theme's colour, which a light system palette shows white on white. The system's text colour instead.
    '@media (forced-colors: active)': { '& svg text': { fill: 'CanvasText' }, '& svg line, & svg path.domain': { stroke: 'CanvasText' } },
  },
});

interface Bar {
  label: string;
  value: number;
}

/** The largest values of one numeric cell among rows of one section, biggest first. */
export function topBars(rows: readonly ReportRow[], section: string, labelKey: string, valueKey: string, count = CHART_ITEMS): Bar[] {
  return rows
    .filter((row) => row.section === section && typeof row[valueKey] === 'number' && (row[valueKey] as number) > 0)
    .map((row) => ({ label: String(row[labelKey] ?? '—'), value: row[valueKey] as number }))
    .sort((a, b) => b.value - a.value)
    .slice(0, count);
}

function BarChart({ title, bars, unit, color }: { title: string; bars: Bar[]; unit: string; color: string }) {
  const styles = useStyles();
  // The chart library draws the first point at the bottom; reversed, the worst sits on top.
  const data: HorizontalBarChartWithAxisDataPoint[] = [...bars].reverse().map((bar) => ({
    x: bar.value,
    y: bar.label,
    color,
    legend: bar.label,
    xAxisCalloutData: `${bar.value} ${unit}`,
    callOutAccessibilityData: { ariaLabel: `${bar.label}: ${bar.value} ${unit}` },
  }));
  return (
    <figure className={styles.chart} aria-label={title}>
      <Subtitle2 as="h3">{title}</Subtitle2>
      {bars.length === 0 ? (
        <p>No data to chart.</p>
      ) : (
        // The chart takes its parent's height, so the parent's must not depend on the chart.
        <div style={{ height: `${bars.length * 32 + 72}px` }}>
          <HorizontalBarChartWithAxis data={data} hideLegend chartTitle={title} xAxisTitle={unit} margins={{ left: 170, right: 24, top: 8, bottom: 48 }} />
        </div>
      )}
      {/* The same figures as text, for screen readers and for anyone who would rather read them. */}
      <figcaption>
        <ol aria-label={`${title}, as a list`} style={{ position: 'absolute', width: 1, height: 1, overflow: 'hidden', clip: 'rect(0 0 0 0)' }}>
          {bars.map((bar) => (
            <li key={bar.label}>{`${bar.label}: ${bar.value} ${unit}`}</li>
          ))}
        </ol>
      </figcaption>
    </figure>
  );
}

/** Report 6 at a glance: where a person would rather look than read. */
export function StartupCharts({ rows }: { rows: readonly ReportRow[] }) {
  const styles = useStyles();
  return (
    <div className={styles.charts}>
      <BarChart
        title="Slowest models: mean power-on to desktop"
        bars={topBars(rows, 'models', 'modelName', 'meanTimeToDesktopSeconds')}
        unit="seconds"
        color={tokens.colorPaletteDarkOrangeBorderActive}
      />
      <BarChart title="Applications that crash most" bars={topBars(rows, 'apps', 'app', 'crashes')} unit="crashes" color={tokens.colorPaletteRedBorderActive} />
    </div>
  );
}
