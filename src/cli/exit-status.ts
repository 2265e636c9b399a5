/** Exit statuses (docs/contract.md, "The command line"). */
export const EXIT_USAGE = 2;
export const EXIT_LOAD_ERROR = 3;
/** `dmhealth applies`: nothing by that name, or more than one thing (docs/contract.md, "The command line"). */
export const EXIT_NOT_FOUND = 4;
