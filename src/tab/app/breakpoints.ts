/**
 * The tab's widths, as makeStyles keys. Below `PHONE` the first screen is a phone's: texts cut
 * shorter, tools on two rows, a smaller title. Below `NARROW` the navigation stands above the
 * report rather than beside it (`WIDE_LAYOUT` is its complement, for useMediaQuery).
 */
export const PHONE = '@media (max-width: 599px)';
export const NARROW = '@media (max-width: 720px)';
export const WIDE_LAYOUT = '(min-width: 721px)';
