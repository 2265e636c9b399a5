/**
 * Plain text laid out for a terminal of a given width (docs/contract.md, "The command line"): no
 * line is longer than the width, but for a link, which is never cut. Text is wrapped at spaces (a
 * word longer than a line is cut), and
 * a table drops its least important columns until it fits, saying which.
 */

/** The width to lay out for: `--width`, else the terminal's, else `COLUMNS`; null (no limit) when the output is not a terminal and nothing says. */
export function outputWidth(option: number | undefined, stream: { isTTY?: boolean; columns?: number }, env: NodeJS.ProcessEnv): number | null {
  if (option !== undefined) return option;
  if (stream.isTTY && stream.columns) return stream.columns;
  const columns = Number(env.COLUMNS);
  if (Number.isInteger(columns) && columns > 0) return columns;
  return stream.isTTY ? 80 : null;
}

/** The narrowest width laid out for: below it, a table has no room for even one column and a label. */
export const MIN_WIDTH = 40;

/** A web address, which `wrap` keeps whole on one line. */
export function isLink(word: string): boolean {
  return /^<?https?:\/\//.test(word);
}

/** `text` in lines of at most `width` characters, each after `indent` (the first after `first`, if given); a link is kept whole, even past the width. */
export function wrap(text: string, width: number | null, indent = '', first = indent): string[] {
  if (width === null) return [`${first}${text}`];
  const lines: string[] = [];
  let line = first;
  let fresh = true;
  for (const word of text.split(' ').filter(Boolean)) {
    let rest = word;
    // Bounded: each turn places part of the word or starts a line.
    for (let guard = 0; rest !== '' && guard < 10_000; guard += 1) {
      if (!fresh) {
        if (line.length + 1 + rest.length <= width) {
          line = `${line} ${rest}`;
          rest = '';
        } else {
          lines.push(line);
          line = indent;
          fresh = true;
        }
        continue;
      }
      // A link is never cut: a terminal makes it clickable and a reader copies it only whole, so it
      // runs past the width on a line of its own rather than across lines.
      if (isLink(rest)) {
        line = `${line}${rest}`;
        rest = '';
        fresh = false;
        continue;
      }
      // A word longer than a whole line (a long name) is cut across lines.
      const room = Math.max(1, width - line.length);
      line = `${line}${rest.slice(0, room)}`;
      rest = rest.slice(room);
      fresh = false;
      if (rest !== '') {
        lines.push(line);
        line = indent;
        fresh = true;
      }
    }
  }
  if (!fresh || lines.length === 0) lines.push(line);
  return lines;
}

export interface TextColumn {
  label: string;
  /** Lower goes first when the table must lose columns; the first column is never dropped. */
  priority: number;
}

const GAP = '  ';
/** A column shrinks to this before any column is dropped. */
const MIN_COLUMN = 12;

/**
 * A table within `width`: columns keep their order; when they do not fit, the widest cells shrink
 * (cut with "…") down to a floor, then the lowest-priority columns go, named in the returned `left`.
 */
export function layoutTable(columns: readonly TextColumn[], rows: ReadonlyArray<readonly string[]>, width: number | null): { lines: string[]; left: string[] } {
  const natural = columns.map((column, index) => Math.max(column.label.length, ...rows.map((row) => row[index]!.length)));
  let shown = columns.map((_, index) => index);
  let widths = [...natural];
  const total = () => shown.reduce((sum, index) => sum + widths[index]!, 0) + GAP.length * (shown.length - 1);
  if (width !== null) {
    // Shrink the widest first, then drop the least important, until the table fits.
    for (let guard = 0; guard < 10_000 && total() > width; guard += 1) {
      const widest = shown.reduce((best, index) => (widths[index]! > widths[best]! ? index : best), shown[0]!);
      if (widths[widest]! > MIN_COLUMN) {
        widths[widest] = Math.max(MIN_COLUMN, widths[widest]! - (total() - width));
        continue;
      }
      if (shown.length === 1) {
        widths[shown[0]!] = Math.max(1, width);
        break;
      }
      const drop = shown.slice(1).reduce((worst, index) => (columns[index]!.priority < columns[worst]!.priority ? index : worst), shown[1]!);
      shown = shown.filter((index) => index !== drop);
      // Room freed: the others may grow back towards their natural width.
      widths = natural.map((value, index) => (shown.includes(index) ? value : 0));
    }
  }
  const cell = (value: string, index: number) => {
    const room = widths[index]!;
    return (value.length > room ? `${value.slice(0, Math.max(0, room - 1))}…` : value).padEnd(room);
  };
  const line = (values: readonly string[]) =>
    shown
      .map((index) => cell(values[index]!, index))
      .join(GAP)
      .trimEnd();
  return {
    lines: [line(columns.map((column) => column.label)), line(widths.map((value) => '-'.repeat(value))), ...rows.map((row) => line(row))],
    left: columns.filter((_, index) => !shown.includes(index)).map((column) => column.label),
  };
}
