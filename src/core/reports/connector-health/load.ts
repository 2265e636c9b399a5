/**
 * Report 1's Graph reads (the certificate connectors, Mobile Threat Defense connectors and partner
 * integrations, the managed Google Play and Autopilot singletons; and beside the specification the
 * Apple MDM push certificate, ADE and VPP tokens and the Intune Connectors for Active Directory),
 * kept to the fields `derive` reads.
 */

import type * as Graph from '@microsoft/microsoft-graph-types';
import type * as Beta from '@microsoft/microsoft-graph-types-beta';
import type { GraphReader } from '../../graph/graph-reader.js';
import { GraphError } from '../../graph/graph-error.js';
import { unwrapSingleton } from '../graph-values.js';
import { optionalReadFailure } from '../optional-read.js';
import type { OptionalRead } from '../optional-read.js';
import type { LoadContext } from '../report-model.js';
import { readCollection } from '../read-collection.js';
import { loadSideBySide } from '../side-by-side.js';
import { selectOf } from '../../graph/upstream-read.js';
import type { UpstreamRead } from '../../graph/upstream-read.js';
import {
  AD_CONNECTORS_READ,
  ADE_TOKENS_READ,
  AUTOPILOT_READ,
  MANAGED_STORE_READ,
  MTD_BETA_READ,
  MTD_READ,
  NDES_READ,
  PARTNERS_READ,
  PUSH_CERTIFICATE_READ,
  VPP_TOKENS_READ,
} from './reads.js';

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

export type ApplePushCertificate = Pick<
  Graph.ApplePushNotificationCertificate,
  'id' | 'appleIdentifier' | 'topicIdentifier' | 'expirationDateTime' | 'lastModifiedDateTime' | 'certificateUploadStatus' | 'certificateUploadFailureReason'
>;
export type AdeToken = Pick<
  Beta.DepOnboardingSetting,
  'id' | 'tokenName' | 'appleIdentifier' | 'tokenType' | 'tokenExpirationDateTime' | 'lastSuccessfulSyncDateTime' | 'lastSyncErrorCode' | 'syncedDeviceCount'
>;
/** `state` typed as beta's enum: beta adds `duplicateLocationId`, which `/v1.0`'s schema lacks (docs/finding-rules.md, report 1). */
export type VppToken = Pick<Graph.VppToken, 'id' | 'organizationName' | 'appleId' | 'vppTokenAccountType' | 'expirationDateTime' | 'lastSyncDateTime' | 'lastSyncStatus'> & {
  state?: Beta.VppTokenState | null;
};
export type AdConnector = Pick<Beta.DeviceManagementDomainJoinConnector, 'id' | 'displayName' | 'state' | 'version' | 'lastConnectionDateTime'>;

export interface ConnectorRecords {
  ndesConnectors: NdesConnector[];
  mobileThreatDefenseConnectors: MtdConnector[];
  deviceManagementPartners: PartnerIntegration[];
  /** null: the tenant never bound managed Google Play (the singleton answered 404). */
  managedGooglePlay: ManagedGooglePlay | null;
  /** null: Autopilot settings were never created (404). */
  autopilot: AutopilotSettings | null;
  /**
   * Read beside the specification, each on its own (docs/finding-rules.md, report 1, "Apple tokens
   * and the connector for Active Directory"): a read that fails is a "could not check" row, never
   * the report's load error. null: no push certificate (404, or an empty record).
   */
  applePushCertificate: OptionalRead<ApplePushCertificate | null>;
  adeTokens: OptionalRead<AdeToken[]>;
  vppTokens: OptionalRead<VppToken[]>;
  adConnectors: OptionalRead<AdConnector[]>;
}

export async function loadConnectors(context: LoadContext): Promise<ConnectorRecords> {
  const { graph } = context;
  const list =
    <T>(read: UpstreamRead, source: string, project: (item: T) => T) =>
    (signal: AbortSignal) =>
      readCollection(context, source, read.path, { signal, query: { $select: selectOf(read) } }, project);
  const [ndesConnectors, mobileThreatDefenseConnectors, deviceManagementPartners, managedGooglePlay, autopilot, applePushCertificate, adeTokens, vppTokens, adConnectors] =
    await loadSideBySide<
      [
        NdesConnector[],
        MtdConnector[],
        PartnerIntegration[],
        ManagedGooglePlay | null,
        AutopilotSettings | null,
        OptionalRead<ApplePushCertificate | null>,
        OptionalRead<AdeToken[]>,
        OptionalRead<VppToken[]>,
        OptionalRead<AdConnector[]>,
      ]
    >([
      list<NdesConnector>(NDES_READ, 'ndesConnectors', (c) => ({
        id: c.id,
        displayName: c.displayName,
        machineName: c.machineName,
        state: c.state,
        lastConnectionDateTime: c.lastConnectionDateTime,
        connectorVersion: c.connectorVersion,
      })),
      (signal) => loadMobileThreatDefenseConnectors(context, signal),
      list<PartnerIntegration>(PARTNERS_READ, 'deviceManagementPartners', (p) => ({
        id: p.id,
        displayName: p.displayName,
        isConfigured: p.isConfigured,
        partnerState: p.partnerState,
        lastHeartbeatDateTime: p.lastHeartbeatDateTime,
        whenPartnerDevicesWillBeMarkedAsNonCompliantDateTime: p.whenPartnerDevicesWillBeMarkedAsNonCompliantDateTime,
        whenPartnerDevicesWillBeRemovedDateTime: p.whenPartnerDevicesWillBeRemovedDateTime,
      })),
      () => told(context, 'androidManagedStoreAccountEnterpriseSettings', loadManagedGooglePlay(graph)),
      () => told(context, 'windowsAutopilotSettings', getSingleton<AutopilotSettings>(graph, AUTOPILOT_READ.path, { $select: selectOf(AUTOPILOT_READ) })),
      (signal) => optional(signal, () => told(context, 'applePushNotificationCertificate', loadApplePushCertificate(graph, signal))),
      (signal) =>
        optional(signal, () =>
          readCollection<AdeToken, AdeToken>(context, 'depOnboardingSettings', ADE_TOKENS_READ.path, { signal, query: { $select: selectOf(ADE_TOKENS_READ) } }, (t) => ({
            id: t.id,
            tokenName: t.tokenName,
            appleIdentifier: t.appleIdentifier,
            tokenType: t.tokenType,
            tokenExpirationDateTime: t.tokenExpirationDateTime,
            lastSuccessfulSyncDateTime: t.lastSuccessfulSyncDateTime,
            lastSyncErrorCode: t.lastSyncErrorCode,
            syncedDeviceCount: t.syncedDeviceCount,
          })),
        ),
      (signal) =>
        optional(signal, () =>
          // The projection keeps nothing else, `token` above all, should Graph send it anyway.
          readCollection<VppToken, VppToken>(context, 'vppTokens', VPP_TOKENS_READ.path, { signal, query: { $select: selectOf(VPP_TOKENS_READ) } }, (t) => ({
            id: t.id,
            organizationName: t.organizationName,
            appleId: t.appleId,
            vppTokenAccountType: t.vppTokenAccountType,
            state: t.state,
            expirationDateTime: t.expirationDateTime,
            lastSyncDateTime: t.lastSyncDateTime,
            lastSyncStatus: t.lastSyncStatus,
          })),
        ),
      (signal) =>
        optional(signal, () =>
          readCollection<AdConnector, AdConnector>(context, 'domainJoinConnectors', AD_CONNECTORS_READ.path, { signal, query: { $select: selectOf(AD_CONNECTORS_READ) } }, (c) => ({
            id: c.id,
            displayName: c.displayName,
            state: c.state,
            version: c.version,
            lastConnectionDateTime: c.lastConnectionDateTime,
          })),
        ),
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
    applePushCertificate,
    adeTokens,
    vppTokens,
    adConnectors,
  };
}

/** A read beside the specification: its failure is a value (`derive` shows "could not check"), an abort goes on up. */
async function optional<T>(signal: AbortSignal, read: () => Promise<T>): Promise<OptionalRead<T>> {
  try {
    return { ok: true, value: await read() };
  } catch (error) {
    return { ok: false, reason: optionalReadFailure(error, signal) };
  }
}

/**
 * The Apple MDM push certificate, a singleton on `/v1.0`
 * (learn.microsoft.com/graph/api/intune-devices-applepushnotificationcertificate-get). A tenant that
 * never uploaded one answers 404 (no Graph page documents it; admins report `ResourceNotFound`,
 * ThomasKur/IntuneDocumentation#39), and `expirationDateTime` is not nullable, so a record with no
 * Apple ID and no real expiry is as likely: both mean "no certificate" (null).
 */
async function loadApplePushCertificate(graph: GraphReader, signal: AbortSignal): Promise<ApplePushCertificate | null> {
  const certificate = await getSingleton<ApplePushCertificate>(graph, PUSH_CERTIFICATE_READ.path, { $select: selectOf(PUSH_CERTIFICATE_READ) }, signal);
  if (!certificate) return null;
  const projected: ApplePushCertificate = {
    id: certificate.id,
    appleIdentifier: certificate.appleIdentifier,
    topicIdentifier: certificate.topicIdentifier,
    expirationDateTime: certificate.expirationDateTime,
    lastModifiedDateTime: certificate.lastModifiedDateTime,
    certificateUploadStatus: certificate.certificateUploadStatus,
    certificateUploadFailureReason: certificate.certificateUploadFailureReason,
  };
  return isEmptyPushCertificate(projected) ? null : projected;
}

/** No Apple ID, no topic and no real expiry: Graph's empty record of a certificate never uploaded. */
export function isEmptyPushCertificate(certificate: ApplePushCertificate): boolean {
  const expiry = Date.parse(String(certificate.expirationDateTime ?? ''));
  const noExpiry = !Number.isFinite(expiry) || expiry <= Date.parse('0001-01-02T00:00:00Z') || expiry === 0;
  return !certificate.appleIdentifier && !certificate.topicIdentifier && noExpiry;
}

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
  const query = { $select: selectOf(MTD_READ) };
  const connectors = await readCollection<MtdConnector, MtdConnector>(context, 'mobileThreatDefenseConnectors', MTD_READ.path, { signal, query }, projectMtd);
  if (!connectors.some((connector) => connector.partnerState === STATE_HIDDEN_BY_V1)) return connectors;
  let onBeta: Map<string, MtdConnector['partnerState']>;
  try {
    const betaConnectors = await context.graph.getAll<MtdConnector, MtdConnector>(MTD_BETA_READ.path, { signal, query: { $select: selectOf(MTD_BETA_READ) } }, projectMtd);
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

/** Managed Google Play, on beta only, where Graph declares it (reads.ts, `MANAGED_STORE_READ`); null when never bound (404). */
async function loadManagedGooglePlay(graph: GraphReader): Promise<ManagedGooglePlay | null> {
  return getSingleton<ManagedGooglePlay>(graph, MANAGED_STORE_READ.path, { $select: selectOf(MANAGED_STORE_READ) });
}

/** A singleton, or null when the tenant never set it up (404). */
async function getSingleton<T>(graph: GraphReader, path: string, query?: Record<string, string>, signal?: AbortSignal): Promise<T | null> {
  try {
    return unwrapSingleton<T>(await graph.get<unknown>(path, { ...(query ? { query } : {}), ...(signal ? { signal } : {}) }));
  } catch (error) {
    if (error instanceof GraphError && error.status === 404) return null;
    throw error;
  }
}
