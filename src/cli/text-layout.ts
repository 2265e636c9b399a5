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
  /** Lower goes first when the table must lose columns; the highest is never dropped. */
  priority: number;
  /**
   * How its cells give way (docs/contract.md, "The command line"): a `name` is cut in the middle,
   * keeping the tail that often tells names apart ("… token 7"), and is kept wide enough that the
   * names it shows stay apart; a `verdict` is kept whole up to `VERDICT_FLOOR`; any other cell is
   * cut at its end, down to `MIN_COLUMN`.
   */
  kind?: 'name' | 'verdict';
}

const GAP = '  ';
/** A column shrinks to this before any column is dropped. */
const MIN_COLUMN = 12;
/** A verdict is kept whole up to this many characters before any column is dropped: what the report is about. */
const VERDICT_FLOOR = 32;
/** A name column needs no more than this to keep its names apart; past it, it takes its share like any other. */
const NAME_FLOOR = 32;

/** `value` in at most `room` characters, cut at its end ("Only delete…") or, for a name, in its middle ("Conto…ken 7"). */
export function cutCell(value: string, room: number, kind?: TextColumn['kind']): string {
  if (value.length <= room) return value;
  if (room <= 1) return '…'.slice(0, room);
  if (kind !== 'name') return `${value.slice(0, room - 1)}…`;
  // The tail gets the larger half: names that share a long prefix differ at their end.
  const head = Math.floor((room - 1) / 2);
  const tail = room - 1 - head;
  return `${value.slice(0, head)}…${value.slice(value.length - tail)}`;
}

/** The narrowest width (from `least`) at which the names, cut in the middle, are as many different names as uncut. */
function namesApartWidth(values: readonly string[], least: number, most: number): number {
  const different = new Set(values).size;
  // Bounded: one try per width between the two bounds.
  for (let room = least; room < most; room += 1) {
    if (new Set(values.map((value) => cutCell(value, room, 'name'))).size === different) return room;
  }
  return most;
}

/**
 * A table within `width`: columns keep their order. Each column has a floor (a verdict whole up to
 * `VERDICT_FLOOR`, a name whole up to `NAME_FLOOR` or, where that is too wide, as wide as keeps its
 * names apart, any other `MIN_COLUMN`); while the floors
 * do not fit, the lowest-priority column goes (named in the returned `left`). The room left over is
 * shared out evenly, each column growing towards its natural width, so no one column takes it all.
 */
export function layoutTable(columns: readonly TextColumn[], rows: ReadonlyArray<readonly string[]>, width: number | null): { lines: string[]; left: string[] } {
  // A loop, not Math.max(...): a large tenant's table has more rows than a call's arguments may hold.
  const natural = columns.map((column, index) => rows.reduce((widest, row) => Math.max(widest, row[index]!.length), column.label.length));
  // Comfortable floors first: a name up to NAME_FLOOR whole. Only if those do not fit does a name
  // shrink to the width that still keeps its names apart, before any column is dropped.
  const floorsFor = (tight: boolean) =>
    columns.map((column, index) => {
      const full = natural[index]!;
      if (column.kind === 'verdict') return Math.min(full, VERDICT_FLOOR);
      if (column.kind !== 'name') return Math.min(full, MIN_COLUMN);
      if (!tight) return Math.min(full, NAME_FLOOR);
      return namesApartWidth(
        rows.map((row) => row[index]!),
        Math.min(full, Math.max(MIN_COLUMN, column.label.length)),
        Math.min(full, NAME_FLOOR),
      );
    });
  const kept = columns.reduce((best, column, index) => (column.priority > columns[best]!.priority ? index : best), 0);
  let shown = columns.map((_, index) => index);
  let widths = [...natural];
  if (width !== null) {
    const gaps = () => GAP.length * (shown.length - 1);
    const sum = (values: readonly number[]) => shown.reduce((total, index) => total + values[index]!, 0);
    if (sum(natural) + gaps() > width) {
      let floors = floorsFor(false);
      if (sum(floors) + gaps() > width) floors = floorsFor(true);
      // Bounded: each turn drops a column.
      while (shown.length > 1 && sum(floors) + gaps() > width) {
        const drop = shown.filter((index) => index !== kept).reduce((worst, index) => (columns[index]!.priority < columns[worst]!.priority ? index : worst));
        shown = shown.filter((index) => index !== drop);
      }
      widths = shown.length === 1 ? natural.map((value) => Math.min(value, width)) : shareOut(shown, floors, natural, width - gaps());
    }
  }
  const cell = (value: string, index: number) => cutCell(value, widths[index]!, columns[index]!.kind).padEnd(widths[index]!);
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

/** Widths for the shown columns within `room`: each its floor, then the rest raised evenly (a water level) towards its natural width. */
function shareOut(shown: readonly number[], floors: readonly number[], natural: readonly number[], room: number): number[] {
  const at = (level: number) => floors.map((floor, index) => Math.max(floor, Math.min(natural[index]!, level)));
  const total = (widths: readonly number[]) => shown.reduce((sum, index) => sum + widths[index]!, 0);
  const highest = Math.max(...shown.map((index) => natural[index]!));
  let level = 0;
  // Bounded by the widest natural width.
  while (level < highest && total(at(level + 1)) <= room) level += 1;
  const widths = at(level);
  // What the level could not share evenly goes a character each to the columns that still want it, in order.
  let spare = room - total(widths);
  for (const index of shown) {
    if (spare <= 0) break;
    if (widths[index]! < natural[index]!) {
      widths[index]! += 1;
      spare -= 1;
    }
  }
  return widths;
}
