import net from 'node:net';

/**
 * Where the Azure Monitor distribution connects beside the ingestion endpoint a connection string
 * names, as its packages (@azure/monitor-opentelemetry and its exporter) do on their own:
 * - its control plane, OneSettings, polled from the first exporter on, with no switch to stop it;
 * - Statsbeat, the SDK's reports on itself, to two fixed regional endpoints;
 * - Live Metrics' endpoint (off here: `enableLiveMetrics: false`);
 * - the Azure Instance Metadata Service, which its resource detection asks whenever it does not
 *   find App Service, Functions, Container Apps or AKS in the environment.
 * None of them is configured by the operator, and an organization that allows the app to reach its
 * own Application Insights has not allowed these (docs/architecture.md, "Telemetry").
 */
export const SDK_OWN_ENDPOINTS: readonly string[] = [
  'settings.sdk.monitor.azure.com',
  'westus-0.in.applicationinsights.azure.com',
  'westeurope-5.in.applicationinsights.azure.com',
  'rt.services.visualstudio.com',
  '169.254.169.254',
];

/** The host a connection string's `IngestionEndpoint` names, lower case; undefined when it names none. */
export function ingestionHost(connectionString: string): string | undefined {
  const endpoint = /(?:^|;)\s*IngestionEndpoint\s*=\s*([^;]+)/i.exec(connectionString)?.[1]?.trim();
  if (!endpoint) return undefined;
  try {
    return new URL(endpoint).hostname.toLowerCase();
  } catch {
    return undefined;
  }
}

/**
 * Refuses, in this process, every connection to the SDK's own endpoints but the configured ingestion
 * host (a connection string may name one of the regional hosts Statsbeat also uses). The refusal
 * happens before any packet leaves, as the connection's error, which the SDK takes as the endpoint
 * being unreachable. Returns how to lift it.
 */
export function refuseSdkOwnEndpoints(connectionString: string, onRefused: (host: string) => void): () => void {
  const allowed = ingestionHost(connectionString);
  const refused = new Set(SDK_OWN_ENDPOINTS.filter((host) => host !== allowed));
  const connect = net.Socket.prototype.connect;
  const guarded = function (this: net.Socket, ...args: unknown[]): net.Socket {
    // net.connect passes its normalised arguments as an array: [options, callback].
    const first = Array.isArray(args[0]) ? (args[0] as unknown[])[0] : args[0];
    const host = first !== null && typeof first === 'object' ? (first as { host?: unknown }).host : typeof args[1] === 'string' ? args[1] : undefined;
    const name = typeof host === 'string' ? host.toLowerCase().replace(/\.$/, '') : '';
    if (!refused.has(name)) return (connect as (...values: unknown[]) => net.Socket).apply(this, args);
    onRefused(name);
    process.nextTick(() => this.destroy(Object.assign(new Error(`connect ECONNREFUSED ${name} (the telemetry SDK's own endpoint, not configured)`), { code: 'ECONNREFUSED' })));
    return this;
  } as typeof connect;
  net.Socket.prototype.connect = guarded;
  return () => {
    if (net.Socket.prototype.connect === guarded) net.Socket.prototype.connect = connect;
  };
}
