/**
 * The tab's widths, as makeStyles keys. Below `PHONE` the first screen is a phone's: texts cut
 * shorter, tools on two rows, a smaller title. Below `NARROW` the navigation stands above the
 * report rather than beside it (`WIDE_LAYOUT` is its complement, for useMediaQuery).
 */
export const PHONE = '@media (max-width: 599px)';
export const NARROW = '@media (max-width: 720px)';
export const WIDE_LAYOUT = '(min-width: 721px)';
/** `PHONE` for useMediaQuery: a phone's table shows a row's name and verdicts, the rest in its pane. */
export const PHONE_LAYOUT = '(max-width: 599px)';
