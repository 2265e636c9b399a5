/**
 * Words for the server setting that reads, on Microsoft Graph's beta version, the collections its
 * v1.0 cuts short (docs/using.md, "What /v1.0 cannot show"). A report's notice is read in the tab and
 * the bot's cards by Intune administrators, who may not run the app: it says in their terms what is
 * not shown, that the Intune admin center itself reads the beta version, and who can change it
 * (`BETA_COVERAGE_ASK`, followed by what it would show). The setting's own name is operator text, for
 * the docs, the command line and the server's log (`BETA_COVERAGE_SETTING`).
 */
export const BETA_COVERAGE_ASK = "Whoever runs this app can have it read Microsoft Graph's beta version, as the Intune admin center does,";

/** What the operator sets where the app runs, which the command line prints beside a notice that asks for it, and the server logs at start while it is off. */
export const BETA_COVERAGE_SETTING =
  'To read Microsoft Graph\'s beta version where v1.0 leaves things out, set GRAPH_BETA_COVERAGE=true where the app runs (docs/using.md, "What /v1.0 cannot show").';
