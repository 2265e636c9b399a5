import { GraphRequestRefusedError } from '../core/graph/graph-error.js';

/**
 * The only Graph paths this service may read: the table in docs/contract.md ("Upstream reads"), each
 * on its version segment. Beside the specification's 21 paths are reads that Intune's meaning needs
 * and that the same permissions allow (docs/finding-rules.md gives each its reason): the `/beta`
 * twins of the managed Google Play settings and of the Mobile Threat Defense connectors (report 1),
 * Win32 relationships, assignment filters and a few objects' beta assignments (report 2), a policy's
 * settings and the baseline templates (report 3); the Apple push certificate, ADE and VPP tokens and
 * connectors for Active Directory (report 1), deleted groups (report 2), and Intune's audit log
 * (reports 2 and 3, with the product's `DeviceManagementApps.Read.All`). `{id}` stands for one GUID.
 */
export const UPSTREAM_PATHS: readonly string[] = [
  '/beta/deviceManagement/ndesConnectors',
  '/v1.0/deviceManagement/mobileThreatDefenseConnectors',
  '/beta/deviceManagement/mobileThreatDefenseConnectors',
  '/v1.0/deviceManagement/androidManagedStoreAccountEnterpriseSettings',
  '/beta/deviceManagement/androidManagedStoreAccountEnterpriseSettings',
  '/v1.0/deviceManagement/deviceManagementPartners',
  '/beta/deviceManagement/windowsAutopilotSettings',
  '/v1.0/deviceManagement/deviceConfigurations',
  '/v1.0/deviceManagement/deviceCompliancePolicies',
  '/beta/deviceManagement/configurationPolicies',
  '/beta/deviceManagement/configurationPolicies/{id}/settings',
  '/beta/deviceManagement/configurationPolicyTemplates',
  '/v1.0/deviceAppManagement/mobileApps',
  '/beta/deviceManagement/deviceManagementScripts',
  '/beta/deviceManagement/deviceHealthScripts',
  '/v1.0/groups/{id}',
  '/beta/deviceManagement/intents',
  '/beta/deviceManagement/templates',
  '/v1.0/directory/deviceLocalCredentials',
  '/v1.0/informationProtection/bitlocker/recoveryKeys',
  '/v1.0/deviceManagement/managedDevices',
  '/beta/deviceManagement/operationApprovalPolicies',
  '/beta/deviceManagement/operationApprovalRequests',
  '/v1.0/deviceManagement/userExperienceAnalyticsDevicePerformance',
  '/v1.0/deviceManagement/userExperienceAnalyticsAppHealthApplicationPerformance',
  // Report 2: Win32 dependencies and supersedence, and assignment filters, exist on beta only.
  '/beta/deviceAppManagement/mobileAppRelationships',
  '/beta/deviceManagement/assignmentFilters',
  // Report 2: one object's assignments with their filters, for the few objects read on
  // /v1.0 (which shows no filter) whose All users + All devices verdict depends on them.
  '/beta/deviceManagement/deviceConfigurations/{id}/assignments',
  '/beta/deviceManagement/deviceCompliancePolicies/{id}/assignments',
  '/beta/deviceAppManagement/mobileApps/{id}/assignments',
  // Report 1: the Apple MDM push certificate, ADE and VPP tokens, and the Intune Connectors for
  // Active Directory (the last two lists exist on beta only; docs/finding-rules.md, report 1).
  '/v1.0/deviceManagement/applePushNotificationCertificate',
  '/beta/deviceManagement/depOnboardingSettings',
  '/v1.0/deviceAppManagement/vppTokens',
  '/beta/deviceManagement/domainJoinConnectors',
  // Report 2: whether a group the directory no longer has is soft-deleted, and so restorable.
  '/v1.0/directory/deletedItems/{id}',
  // The reports whose findings are about Intune objects (reports 2 and 3): Intune's audit log, for who last
  // changed a finding's object and when (docs/finding-rules.md, "A finding's last change").
  '/v1.0/deviceManagement/auditEvents',
  // What applies to a device, a user or a group: the direct members of the groups assignments name,
  // and of the groups nested in them (Group.Read.All; docs/finding-rules.md, "What applies").
  '/v1.0/groups/{id}/members',
];

/**
 * The `/v1.0` paths whose `/beta` twin is read instead when complete coverage is asked for
 * (`GRAPH_BETA_COVERAGE`, README "What /v1.0 cannot show"): `/v1.0` silently leaves out policy,
 * profile and app types that only the beta schema declares, and a device's join type. The same
 * permissions read them; nothing else is added.
 */
const CUT_SHORT_ON_V1: ReadonlySet<string> = new Set([
  '/v1.0/deviceManagement/deviceConfigurations',
  '/v1.0/deviceManagement/deviceCompliancePolicies',
  '/v1.0/deviceAppManagement/mobileApps',
  '/v1.0/deviceManagement/managedDevices',
]);

/** The beta twins the allow-list takes with complete coverage on. */
export const BETA_COVERAGE_PATHS: readonly string[] = [...CUT_SHORT_ON_V1].map(betaTwin);

function betaTwin(path: string): string {
  return path.replace(/^\/v1\.0\//, '/beta/');
}

/** The path to read for a specification path: its beta twin when complete coverage is on and it has one. */
export function coveragePath(path: string, options: AllowListOptions = {}): string {
  return options.betaCoverage === true && CUT_SHORT_ON_V1.has(path) ? betaTwin(path) : path;
}

/**
 * The JSON batching endpoints: the one POST the service makes, and only with GET sub-requests
 * inside, each of an allowed path on the endpoint's version (a policy's beta `/settings` goes
 * through `/beta/$batch`, as `$batch` runs its sub-requests on its own version).
 */
export const BATCH_PATHS: Readonly<Record<'v1.0' | 'beta', string>> = { 'v1.0': '/v1.0/$batch', beta: '/beta/$batch' };

const GUID = '[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}';

const toPattern = (path: string) => new RegExp(`^${path.replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace('{id}', GUID)}$`);
const specPatterns: readonly RegExp[] = UPSTREAM_PATHS.map(toPattern);
const betaCoveragePatterns: readonly RegExp[] = BETA_COVERAGE_PATHS.map(toPattern);

/** Which paths a client may read: the specification's, plus the beta twins when coverage asks for them. */
export interface AllowListOptions {
  betaCoverage?: boolean;
}

export function isAllowedUpstreamPath(pathname: string, options: AllowListOptions = {}): boolean {
  return specPatterns.some((pattern) => pattern.test(pathname)) || (options.betaCoverage === true && betaCoveragePatterns.some((pattern) => pattern.test(pathname)));
}

/** Refuses anything but a GET of an allow-listed path (or the batch POST) before it is sent. */
export function assertAllowedRequest(method: string, pathname: string, url?: URL, options: AllowListOptions = {}): void {
  if (url && selectsSecretFields(url)) {
    throw new GraphRequestRefusedError(`Refused GET ${pathname}: escrow lists and VPP tokens are read for metadata only, never their key, credentials or token.`);
  }
  if (method === 'POST' && (pathname === BATCH_PATHS['v1.0'] || pathname === BATCH_PATHS.beta)) return;
  if (method !== 'GET') {
    throw new GraphRequestRefusedError(`Refused ${method} ${pathname}: this service only reads (GET) from Microsoft Graph.`);
  }
  if (!isAllowedUpstreamPath(pathname, options)) {
    throw new GraphRequestRefusedError(`Refused GET ${pathname}: the path is not one this service is allowed to read.`);
  }
}

const ESCROW_PATHS = new Set(['/v1.0/directory/deviceLocalCredentials', '/v1.0/informationProtection/bitlocker/recoveryKeys']);
const SECRET_FIELDS = new Set(['key', 'credentials']);

/**
 * Whether a URL asks an escrow list for its secret fields. BitLocker's `key` and LAPS's
 * `credentials` come back only when selected (learn.microsoft.com/graph/api/resources/bitlockerrecoverykey,
 * .../devicelocalcredentialinfo); this service never selects them, whoever wrote the URL.
 */
export function selectsSecretFields(url: URL): boolean {
  if (url.pathname === VPP_TOKENS_PATH) return selectsVppToken(url);
  if (!ESCROW_PATHS.has(url.pathname)) return false;
  for (const [name, value] of url.searchParams) {
    if (!/^\$?(select|expand)$/i.test(name)) continue;
    if (value.split(/[,()]/).some((field) => SECRET_FIELDS.has(field.trim().toLowerCase()))) return true;
  }
  return false;
}

const VPP_TOKENS_PATH = '/v1.0/deviceAppManagement/vppTokens';

/**
 * A VPP token's `token` is the Apple token itself (learn.microsoft.com/graph/api/resources/intune-onboarding-vpptoken),
 * and Graph returns it unless `$select` leaves it out: a read of the list without a `$select`, or
 * one that selects or expands `token`, is refused.
 */
function selectsVppToken(url: URL): boolean {
  let selected = false;
  for (const [name, value] of url.searchParams) {
    if (!/^\$?(select|expand)$/i.test(name)) continue;
    if (/^\$?select$/i.test(name)) selected = true;
    if (value.split(/[,()]/).some((field) => field.trim().toLowerCase() === 'token')) return true;
  }
  return !selected;
}
