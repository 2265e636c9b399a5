/** Report 1's Graph reads (the certificate connectors, Mobile Threat Defense connectors and partner integrations, and the managed Google Play and Autopilot singletons), kept to the fields `derive` reads. */

import type * as Graph from '@microsoft/microsoft-graph-types';
import type * as Beta from '@microsoft/microsoft-graph-types-beta';
import type { GraphReader } from '../../graph/graph-reader.js';
import { GraphError } from '../../graph/graph-error.js';
import { unwrapSingleton } from '../graph-values.js';
import type { LoadContext } from '../report-model.js';
import { readCollection } from '../read-collection.js';
import { loadSideBySide } from '../side-by-side.js';

export type NdesConnector = Pick<Beta.NdesConnector, 'id' | 'displayName' | 'machineName' | 'state' | 'lastConnectionDateTime' | 'connectorVersion'>;
export type MtdConnector = Pick<Graph.MobileThreatDefenseConnector, 'id' | 'lastHeartbeatDateTime' | 'partnerUnresponsivenessThresholdInDays'> & {
  /** Beta's members: `/v1.0` sends beta's `notSetUp` and `error` as `unknownFutureValue`, and the load reads those connectors again on beta. */
  partnerState?: Beta.MobileThreatPartnerTenantState | null;
  /**
   * Set only for a connector `/v1.0` called `unknownFutureValue`: whether the beta list then named
   * its state (`partnerState` is beta's), did not name it, or could not be read.
   */
  stateOnBeta?: 'named' | 'not named' | 'failed';
};
export type PartnerIntegration = Pick<
  Graph.DeviceManagementPartner,
  | 'id'
  | 'displayName'
  | 'isConfigured'
  | 'partnerState'
  | 'lastHeartbeatDateTime'
  | 'whenPartnerDevicesWillBeMarkedAsNonCompliantDateTime'
  | 'whenPartnerDevicesWillBeRemovedDateTime'
>;
export type ManagedGooglePlay = Pick<
  Beta.AndroidManagedStoreAccountEnterpriseSettings,
  'id' | 'bindStatus' | 'lastAppSyncStatus' | 'lastAppSyncDateTime' | 'ownerOrganizationName'
>;
export type AutopilotSettings = Pick<Beta.WindowsAutopilotSettings, 'id' | 'syncStatus' | 'lastSyncDateTime'>;

export interface ConnectorRecords {
  ndesConnectors: NdesConnector[];
  mobileThreatDefenseConnectors: MtdConnector[];
  deviceManagementPartners: PartnerIntegration[];
  /** null: the tenant never bound managed Google Play (the singleton answered 404). */
  managedGooglePlay: ManagedGooglePlay | null;
  /** null: Autopilot settings were never created (404). */
  autopilot: AutopilotSettings | null;
}

const MANAGED_STORE_PATH = 'deviceManagement/androidManagedStoreAccountEnterpriseSettings';
/**
 * The fields report 1 reads of the managed Google Play settings. The singleton also carries the
 * tenant's enrolment tokens and their QR codes (`companyCodes[].enrollmentToken`, `qrCodeContent`,
 * `qrCodeImage`; learn.microsoft.com/graph/api/resources/intune-androidforwork-androidmanagedstoreaccountenterprisesettings):
 * anyone holding one can enrol a device. `$select` keeps them off the wire, and the projection in
 * `loadConnectors` keeps nothing else should Graph send them anyway.
 */
const MANAGED_STORE_SELECT = 'id,bindStatus,lastAppSyncStatus,lastAppSyncDateTime,ownerOrganizationName';

export async function loadConnectors(context: LoadContext): Promise<ConnectorRecords> {
  const { graph } = context;
  const list =
    <T>(path: string, source: string, project: (item: T) => T) =>
    (signal: AbortSignal) =>
      readCollection(context, source, path, { signal }, project);
  const [ndesConnectors, mobileThreatDefenseConnectors, deviceManagementPartners, managedGooglePlay, autopilot] = await loadSideBySide<
    [NdesConnector[], MtdConnector[], PartnerIntegration[], ManagedGooglePlay | null, AutopilotSettings | null]
  >([
    list<NdesConnector>('/beta/deviceManagement/ndesConnectors', 'ndesConnectors', (c) => ({
      id: c.id,
      displayName: c.displayName,
      machineName: c.machineName,
      state: c.state,
      lastConnectionDateTime: c.lastConnectionDateTime,
      connectorVersion: c.connectorVersion,
    })),
    (signal) => loadMobileThreatDefenseConnectors(context, signal),
    list<PartnerIntegration>('/v1.0/deviceManagement/deviceManagementPartners', 'deviceManagementPartners', (p) => ({
      id: p.id,
      displayName: p.displayName,
      isConfigured: p.isConfigured,
      partnerState: p.partnerState,
      lastHeartbeatDateTime: p.lastHeartbeatDateTime,
      whenPartnerDevicesWillBeMarkedAsNonCompliantDateTime: p.whenPartnerDevicesWillBeMarkedAsNonCompliantDateTime,
      whenPartnerDevicesWillBeRemovedDateTime: p.whenPartnerDevicesWillBeRemovedDateTime,
    })),
    () => told(context, 'androidManagedStoreAccountEnterpriseSettings', loadManagedGooglePlay(graph)),
    () => told(context, 'windowsAutopilotSettings', getSingleton<AutopilotSettings>(graph, '/beta/deviceManagement/windowsAutopilotSettings')),
  ]);
  return {
    ndesConnectors,
    mobileThreatDefenseConnectors,
    deviceManagementPartners,
    managedGooglePlay: managedGooglePlay && {
      id: managedGooglePlay.id,
      bindStatus: managedGooglePlay.bindStatus,
      lastAppSyncStatus: managedGooglePlay.lastAppSyncStatus,
      lastAppSyncDateTime: managedGooglePlay.lastAppSyncDateTime,
      ownerOrganizationName: managedGooglePlay.ownerOrganizationName,
    },
    autopilot: autopilot && { id: autopilot.id, syncStatus: autopilot.syncStatus, lastSyncDateTime: autopilot.lastSyncDateTime },
  };
}

const MTD_PATH = 'deviceManagement/mobileThreatDefenseConnectors';
/** What `/v1.0` sends for beta's `notSetUp` and `error` (docs/finding-rules.md, report 1, "Mobile Threat Defense on /v1.0"). */
const STATE_HIDDEN_BY_V1 = 'unknownFutureValue';

const projectMtd = (c: MtdConnector): MtdConnector => ({
  id: c.id,
  partnerState: c.partnerState,
  lastHeartbeatDateTime: c.lastHeartbeatDateTime,
  partnerUnresponsivenessThresholdInDays: c.partnerUnresponsivenessThresholdInDays,
});

/**
 * The connectors as the specification reads them, on `/v1.0`. That schema's
 * `mobileThreatPartnerTenantState` ends at `unknownFutureValue`, so a connector beta calls
 * `notSetUp` or `error` comes back as that
 * (learn.microsoft.com/graph/api/resources/intune-onboarding-mobilethreatpartnertenantstate?view=graph-rest-beta;
 * the v1.0 metadata has neither member). An `error` connector with a recent heartbeat would then
 * look healthy, so when any record says `unknownFutureValue` the list is read again on beta (same
 * permission) and each such connector takes its beta state. A beta read that fails leaves the
 * state unnamed, which `derive` shows as a warning: never healthy, never a finding.
 */
async function loadMobileThreatDefenseConnectors(context: LoadContext, signal: AbortSignal): Promise<MtdConnector[]> {
  const connectors = await readCollection<MtdConnector, MtdConnector>(context, 'mobileThreatDefenseConnectors', `/v1.0/${MTD_PATH}`, { signal }, projectMtd);
  if (!connectors.some((connector) => connector.partnerState === STATE_HIDDEN_BY_V1)) return connectors;
  let onBeta: Map<string, MtdConnector['partnerState']>;
  try {
    const betaConnectors = await context.graph.getAll<MtdConnector, MtdConnector>(`/beta/${MTD_PATH}`, { signal }, projectMtd);
    onBeta = new Map(betaConnectors.map((connector) => [String(connector.id).toLowerCase(), connector.partnerState]));
  } catch (error) {
    if (signal.aborted || !(error instanceof GraphError)) throw error;
    return connectors.map((connector) => (connector.partnerState === STATE_HIDDEN_BY_V1 ? { ...connector, stateOnBeta: 'failed' as const } : connector));
  }
  return connectors.map((connector) => {
    if (connector.partnerState !== STATE_HIDDEN_BY_V1) return connector;
    const state = onBeta.get(String(connector.id).toLowerCase());
    return state && state !== STATE_HIDDEN_BY_V1 ? { ...connector, partnerState: state, stateOnBeta: 'named' as const } : { ...connector, stateOnBeta: 'not named' as const };
  });
}

/** A singleton is one page: its progress is told once it is read (none, when the tenant never set it up). */
async function told<T>({ onProgress }: LoadContext, source: string, reading: Promise<T | null>): Promise<T | null> {
  onProgress?.(source, 0);
  const singleton = await reading;
  onProgress?.(source, singleton === null ? 0 : 1);
  return singleton;
}

/**
 * The specification names the `/v1.0` path, but Graph documents this singleton on beta only and
 * answers 400 ("Resource not found for the segment") on v1.0 (docs/finding-rules.md, report 1). Ask v1.0 first,
 * as the contract says, and fall back to beta on 400 or 404.
 */
async function loadManagedGooglePlay(graph: GraphReader): Promise<ManagedGooglePlay | null> {
  const query = { $select: MANAGED_STORE_SELECT };
  try {
    return unwrapSingleton<ManagedGooglePlay>(await graph.get<unknown>(`/v1.0/${MANAGED_STORE_PATH}`, { query }));
  } catch (error) {
    if (!(error instanceof GraphError) || (error.status !== 400 && error.status !== 404)) throw error;
  }
  return getSingleton<ManagedGooglePlay>(graph, `/beta/${MANAGED_STORE_PATH}`, query);
}

/** A singleton, or null when the tenant never set it up (404). */
async function getSingleton<T>(graph: GraphReader, path: string, query?: Record<string, string>): Promise<T | null> {
  try {
    return unwrapSingleton<T>(await graph.get<unknown>(path, query ? { query } : {}));
  } catch (error) {
    if (error instanceof GraphError && error.status === 404) return null;
    throw error;
  }
}
