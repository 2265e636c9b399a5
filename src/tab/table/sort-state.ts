export type SortDirection = 'ascending' | 'descending';

/** The column a table is ordered by and which way, as its header shows it; the order itself is the report windows' (report-window.ts). */
export interface SortState {
  columnKey: string;
  direction: SortDirection;
}
