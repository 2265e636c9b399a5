/** Exit statuses (docs/contract.md, "The command line"). */
export const EXIT_USAGE = 2;
export const EXIT_LOAD_ERROR = 3;
