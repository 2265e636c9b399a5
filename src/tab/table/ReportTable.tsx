import { Button, Link, Table, TableBody, TableCell, TableHeader, TableHeaderCell, TableRow, makeStyles, mergeClasses, tokens } from '@fluentui/react-components';
import { useVirtualizer } from '@tanstack/react-virtual';
import { Fragment, useEffect, useMemo, useRef } from 'react';
import type { ReactNode } from 'react';
import type { ReportColumn, ReportRow } from '../../core/reports/report-model.js';
import { cellTone } from '../../core/reports/report-model.js';
import { formatCell, isNumeric } from './cell-format.js';
import { rowLink } from './row-link.js';
import type { FormatContext } from './cell-format.js';
import type { SortState } from './sort-state.js';
import { PHONE, PHONE_LAYOUT } from '../app/breakpoints.js';
import { useMediaQuery } from '../app/use-media-query.js';
import { countOf } from '../../core/text/words.js';

/** A row of one line; rows whose names or verdicts wrap are measured as they are drawn. */
const ROW_HEIGHT = 40;

const useStyles = makeStyles({
  scroller: {
    overflow: 'auto',
    maxHeight: '70vh',
    border: `${tokens.strokeWidthThin} solid ${tokens.colorNeutralStroke2}`,
    borderRadius: tokens.borderRadiusMedium,
    ':focus-visible': { outline: `${tokens.strokeWidthThick} solid ${tokens.colorStrokeFocus2}` },
  },
  // As wide as its columns' least widths, never narrower: the rows (placed absolutely) span the
  // whole table, so a pinned first cell can travel the whole way across. Least widths, not the
  // headers' widths on one line: those made report 4's table wider than a 1280-pixel window's
  // room, and its last columns started out of view.
  table: { width: '100%', minWidth: 'min-content' },
  header: {
    position: 'sticky',
    top: 0,
    zIndex: 1,
    backgroundColor: tokens.colorNeutralBackground1,
  },
  body: { position: 'relative' },
  // The row under the pointer is marked at its start, not by a lighter background: in the dark
  // theme that background takes the red, green and link texts below WCAG AA's 4.5:1.
  row: {
    position: 'absolute',
    left: 0,
    right: 0,
    minHeight: `${ROW_HEIGHT}px`,
    ':hover': { backgroundColor: tokens.colorNeutralBackground1, boxShadow: `inset ${tokens.strokeWidthThickest} 0 0 ${tokens.colorBrandStroke1}` },
    ':active': { backgroundColor: tokens.colorNeutralBackground1 },
  },
  // The least widths add up, for every report's table, to less than the table's room in a 1280-pixel
  // window beside the navigation, so every column shows without scrolling sideways; the
  // room left over goes to names, verdicts and long text first (flexGrow).
  cell: { minWidth: '100px', flexGrow: 1, flexBasis: 0 },
  // Long free text gets the most room, so that fewer of its texts are cut at their lines.
  // Its least width is a short one: the room goes to it by its grow where there is room, and where
  // there is not (report 4 at 1280 pixels) a mostly empty Note gives way to the User beside it.
  wide: { flexGrow: 3, minWidth: '80px' },
  // A user principal name ("user26@contoso-demo.example") is one long word that breaks only after
  // its "@" or a hyphen: room for "user26@contoso-" keeps it to two lines, where a plain column's
  // least width wrapped it onto three beside a mostly empty Note.
  address: { flexGrow: 2, minWidth: '120px' },
  // A verdict ("Only deleted or empty groups, one still restorable") gets a name's room: read whole, on few lines.
  verdict: { flexGrow: 2, minWidth: '110px' },
  // A count, a duration, a score: a few digits, under a header that wraps between its words.
  numericCell: { minWidth: '72px' },
  // "2 findings" and "Open", each with its header, whole.
  findingsCell: { flexGrow: 0, flexBasis: '88px', minWidth: '88px' },
  intuneCell: { flexGrow: 0, flexBasis: '56px', minWidth: '56px' },
  // A time gets room for its precise line ("Dec 28, 2026, 12:58 PM") unbroken: otherwise "PM" wraps
  // to a third line at some hours and not others, and the table's first screen changes with the clock.
  date: { minWidth: '120px' },
  // The first column says what the row is: it stays in view when the table scrolls sideways (a
  // narrow window), so "missing missing" never shows without its device.
  pinned: {
    position: 'sticky',
    left: 0,
    zIndex: 1,
    backgroundColor: tokens.colorNeutralBackground1,
    borderRight: `${tokens.strokeWidthThin} solid ${tokens.colorNeutralStroke2}`,
    // What the row is gets room enough to read on one or two lines.
    flexGrow: 2,
    minWidth: '130px',
    [PHONE]: { minWidth: '120px' },
  },
  // Names, verdicts and dates wrap rather than end in "…": "NDES-CONNECTOR-01" and "-02" differ
  // only at their end, and a verdict cut short is not one an admin can act on. They wrap between
  // words, after a user principal name's "@" and after a setting id's "_" (breakPoints), and inside
  // a word only when it is longer than the whole line.
  text: { whiteSpace: 'normal', overflowWrap: 'break-word', minWidth: 0, paddingBlock: tokens.spacingVerticalXXS },
  // Long free text (a reason, a list of groups): two lines, the whole of it in the row's pane.
  clamped: { display: '-webkit-box', WebkitBoxOrient: 'vertical', WebkitLineClamp: 2, overflow: 'hidden' },
  name: { textAlign: 'start' },
  stacked: { display: 'flex', flexDirection: 'column', minWidth: 0, lineHeight: tokens.lineHeightBase200 },
  secondary: { color: tokens.colorNeutralForeground3, fontSize: tokens.fontSizeBase100 },
  numeric: { justifyContent: 'flex-end', fontVariantNumeric: 'tabular-nums' },
  unavailable: { color: tokens.colorNeutralForeground3, fontStyle: 'italic' },
  danger: { color: tokens.colorPaletteRedForeground1, fontWeight: tokens.fontWeightSemibold },
  warning: { color: tokens.colorPaletteDarkOrangeForeground1 },
  success: { color: tokens.colorPaletteGreenForeground1 },
});

export interface ReportTableProps {
  /** Names the table for assistive technology, e.g. "Escrow gaps: devices". */
  label: string;
  columns: ReportColumn[];
  rows: ReportRow[];
  /** The column and direction the rows are in, if the user chose one. */
  sort: SortState | null;
  onSort: (columnKey: string) => void;
  /** The rows are only the table's first (a preview): how many it has in all is not known yet, and sorting them would misstate the order. */
  partial?: boolean;
  format: FormatContext;
  /** Which cell names the row: shown first and pinned, it opens the row's pane, and names the row's links. */
  nameKey: string;
  /** How many findings a row shows; a row with any gets a button that opens them. */
  findingCount: (row: ReportRow) => number;
  /** Opens the row's pane: every field in full, and its findings. */
  onOpenFindings: (row: ReportRow) => void;
  /**
   * A table read from the server in windows (use-report-window.ts): how many rows it has, the row at
   * a position or undefined while it is on its way (drawn as a placeholder of a row's height), and
   * which rows are in view, so that they are fetched. `rows` is then unused.
   */
  window?: { count: number; rowAt: (index: number) => ReportRow | undefined; onRange: (first: number, last: number) => void };
}

/** Colours for the contract's tones; the words still say it, so colour is never the only cue. */
const TONE_STYLES = { ok: 'success', warning: 'warning', danger: 'danger', neutral: null } as const;

/**
 * A report table that stays smooth at 100,000 rows: only the rows in view (and a few either side)
 * exist in the DOM, each absolutely placed in a body as tall as all rows together. The table keeps
 * its ARIA row count and each row its index, so a screen reader knows where it is.
 */
export function ReportTable({ label, columns: given, rows, sort, onSort, partial = false, format, nameKey, findingCount, onOpenFindings, window: windowed }: ReportTableProps) {
  const count = windowed ? windowed.count : rows.length;
  // The column that names the row comes first, pinned: it says what each row is.
  // On a phone a row shows what it is and its verdicts; every other cell is in its pane.
  const phone = useMediaQuery(PHONE_LAYOUT);
  const columns = useMemo(
    () => [...given.filter((column) => column.key === nameKey), ...given.filter((column) => column.key !== nameKey && (!phone || isVerdict(column)))],
    [given, nameKey, phone],
  );
  // The first cell opens the row's pane, where every cell's full text is, for keyboard and touch
  // alike: a cell cut short with "…" is never readable only on hover.
  const styles = useStyles();
  // A column's width rules, the same for its header and every cell, so the two stay aligned.
  const widthOf = (column: ReportColumn) =>
    mergeClasses(
      styles.cell,
      isNumeric(column) && styles.numericCell,
      isWide(column) && styles.wide,
      column.role === 'address' && styles.address,
      isVerdict(column) && styles.verdict,
      column.format === 'date' && styles.date,
    );
  const scroller = useRef<HTMLDivElement>(null);
  const virtualizer = useVirtualizer({
    count,
    getScrollElement: () => scroller.current,
    estimateSize: () => ROW_HEIGHT,
    overscan: 12,
    // Before the first layout there is no viewport to measure; a screenful keeps first paint whole.
    initialRect: { width: 1000, height: 20 * ROW_HEIGHT },
  });
  const items = virtualizer.getVirtualItems();
  const firstInView = items[0]?.index ?? 0;
  const lastInView = items[items.length - 1]?.index ?? 0;
  const onRange = windowed?.onRange;
  useEffect(() => {
    if (onRange && count > 0) onRange(firstInView, lastInView);
  }, [onRange, count, firstInView, lastInView]);

  return (
    <div ref={scroller} className={styles.scroller} tabIndex={0} role="region" aria-label={`${label}, ${partial ? `the first ${count}` : count} rows`}>
      {/* -1: the number of rows is not known yet (WAI-ARIA 1.2, aria-rowcount). */}
      <Table noNativeElements aria-label={label} aria-rowcount={partial ? -1 : count + 1} className={styles.table} size="small">
        <TableHeader className={styles.header}>
          <TableRow aria-rowindex={1}>
            {columns.map((column, index) => (
              <TableHeaderCell
                key={column.key}
                data-pinned={index === 0 || undefined}
                className={mergeClasses(widthOf(column), index === 0 && styles.pinned)}
                sortable={!partial}
                sortDirection={sort?.columnKey === column.key ? sort.direction : undefined}
                {...(partial ? {} : { onClick: () => onSort(column.key) })}
              >
                {column.label}
                {column.available ? null : ' (n/a)'}
              </TableHeaderCell>
            ))}
            <TableHeaderCell className={styles.findingsCell}>Findings</TableHeaderCell>
            {phone ? null : <TableHeaderCell className={styles.intuneCell}>Intune</TableHeaderCell>}
          </TableRow>
        </TableHeader>
        <TableBody className={styles.body} style={{ height: `${virtualizer.getTotalSize()}px` }}>
          {items.map((item) => {
            const row = windowed ? windowed.rowAt(item.index) : (rows[item.index] as ReportRow);
            if (!row) {
              // Not fetched yet: a row's height, busy, so the table keeps its place and its count (the view announces the fetch).
              return (
                <TableRow
                  key={item.key}
                  data-index={item.index}
                  aria-rowindex={item.index + 2}
                  aria-busy
                  data-placeholder
                  className={styles.row}
                  style={{ transform: `translateY(${item.start}px)`, height: `${ROW_HEIGHT}px` }}
                >
                  <TableCell className={mergeClasses(styles.cell, styles.unavailable)}>Loading…</TableCell>
                </TableRow>
              );
            }
            const link = rowLink(row, String(row[nameKey] ?? 'this item'));
            return (
              <TableRow
                key={item.key}
                ref={virtualizer.measureElement}
                data-index={item.index}
                aria-rowindex={item.index + 2}
                className={styles.row}
                style={{ transform: `translateY(${item.start}px)` }}
              >
                {columns.map((column, index) => {
                  const pinned = index === 0 && styles.pinned;
                  if (!column.available) {
                    return (
                      <TableCell key={column.key} className={mergeClasses(widthOf(column), styles.unavailable, pinned)}>
                        n/a
                      </TableCell>
                    );
                  }
                  const cell = formatCell(row[column.key], column, format);
                  const tone = cellTone(row, column);
                  const toneStyle = tone ? TONE_STYLES[tone] : null;
                  return (
                    <TableCell
                      key={column.key}
                      data-tone={tone ?? undefined}
                      data-pinned={index === 0 || undefined}
                      className={mergeClasses(widthOf(column), isNumeric(column) && styles.numeric, toneStyle ? styles[toneStyle] : undefined, pinned)}
                    >
                      {index === 0 ? (
                        <Link
                          as="button"
                          className={mergeClasses(styles.text, styles.name)}
                          onClick={() => onOpenFindings(row)}
                          aria-label={`${cell.text}: every field${findingCount(row) > 0 ? ' and its findings' : ''}`}
                          data-open-row
                        >
                          {breakPoints(cell.text)}
                        </Link>
                      ) : column.format === 'date' && cell.detail ? (
                        <span className={styles.stacked}>
                          <span className={styles.text}>{cell.text}</span>
                          <span className={mergeClasses(styles.text, styles.secondary)}>{cell.detail}</span>
                        </span>
                      ) : (
                        <span className={mergeClasses(styles.text, isWide(column) && styles.clamped)} data-long-text={isWide(column) || undefined} title={cell.detail ?? cell.text}>
                          {breakPoints(cell.text)}
                        </span>
                      )}
                    </TableCell>
                  );
                })}
                <TableCell className={styles.findingsCell}>
                  <FindingsButton count={findingCount(row)} name={String(row[nameKey] ?? 'this item')} onOpen={() => onOpenFindings(row)} />
                </TableCell>
                {phone ? null : (
                  <TableCell className={styles.intuneCell}>
                    {link ? (
                      <Link href={link.href} target="_blank" rel="noopener noreferrer" aria-label={`Open ${link.label} in the Intune admin center`}>
                        Open
                      </Link>
                    ) : null}
                  </TableCell>
                )}
              </TableRow>
            );
          })}
        </TableBody>
      </Table>
    </div>
  );
}

/**
 * The text with a place to break after each "@" and "_": a user principal name ("user26@contoso-demo.example")
 * then wraps as its user and its domain, and a settings catalog setting id
 * ("device_vendor_msft_policy_config_camera_allowcamera", the setting conflicts report) between its
 * parts, not wherever the line ends. The text itself is unchanged (copy, search and screen readers read it whole).
 */
function breakPoints(text: string): ReactNode {
  // Each part ends at its mark, found without a lookbehind (Safari before 16.4 has none).
  const parts = text.replace(/[@_]/g, '$&\u0000').split('\u0000');
  if (parts.length === 1) return text;
  return parts.map((part, index) => (
    <Fragment key={index}>
      {index > 0 ? <wbr /> : null}
      {part}
    </Fragment>
  ));
}

/**
 * Opens a row's findings: a button, so the keyboard and touch reach it as a pointer does, and drawn
 * as one (Fluent's outline appearance, a border), since a subtle button read as plain text.
 */
function FindingsButton({ count, name, onOpen }: { count: number; name: string; onOpen: () => void }) {
  if (count === 0) return null;
  return (
    <Button size="small" appearance="outline" onClick={onOpen} aria-label={`${countOf(count, 'finding')} for ${name}: details and how to fix`}>
      {countOf(count, 'finding')}
    </Button>
  );
}

/** Long free text (its role `wide`): more room than a name or a status, cut at two lines (whole in the row's pane). */
function isWide(column: ReportColumn): boolean {
  return column.role === 'wide';
}

/** A column of verdicts (a status, a key's state): it has tones, and shows on a phone beside the row's name. */
function isVerdict(column: ReportColumn): boolean {
  return column.toneKey !== undefined || column.tones !== undefined;
}
