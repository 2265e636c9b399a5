/**
 * Words for the server setting that reads the collections `/v1.0` cuts short on `/beta`
 * (docs/using.md, "What /v1.0 cannot show"). A report's notice is read in the tab and the bot's cards by
 * people who cannot change the server's settings: it says what they can ask for (`BETA_COVERAGE_ASK`).
 * The setting's own name is operator text, for the README and the command line (`BETA_COVERAGE_SETTING`).
 */
export const BETA_COVERAGE_ASK = 'Ask whoever runs this app to turn on its beta coverage';

/** What the operator sets where the app runs, which the command line prints beside a notice that asks for it. */
export const BETA_COVERAGE_SETTING = 'To turn on beta coverage, set GRAPH_BETA_COVERAGE=true where the app runs (docs/using.md, "What /v1.0 cannot show").';
