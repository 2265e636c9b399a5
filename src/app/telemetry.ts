import { SpanKind, SpanStatusCode, metrics, trace } from '@opentelemetry/api';
import type { Attributes, Counter, Histogram, Meter, Tracer } from '@opentelemetry/api';
import type { ReportLoadOutcome } from './create-services.js';
import type { GraphCall } from '../graph/graph-client.js';
import { refuseSdkOwnEndpoints } from './telemetry-egress.js';

/** One send of the bot's as its adapter reports it (src/bot/adapter/teams-adapter.ts): no text, no conversation. */
export interface BotSendOutcome {
  /** A reply to someone's message, or a post the bot started (a schedule's, /api/notify's). */
  kind: 'reply' | 'post';
  activities: number;
  ok: boolean;
  /** The Bot Connector's status when it refused. */
  status: number | undefined;
  durationMs: number;
}

/**
 * What the server tells Application Insights (docs/architecture.md, "Telemetry"): its incoming
 * requests by route, each Microsoft Graph call as a dependency, each report load, and the bot's
 * sends, as spans and as metrics. Every attribute is a route or path template, a report id, a
 * state, a status or a count: never a device, a user, a tenant's name or id, a query or a token.
 * The core knows nothing of it: it observes the ports the edges already have (the Graph client's
 * `onCall`, the services' `onReportLoaded`, the adapter's `onSend`).
 */
export class Telemetry {
  private readonly graphDuration: Histogram;
  private readonly graphThrottled: Counter;
  private readonly loadDuration: Histogram;
  private readonly loadFindings: Histogram;
  private readonly botSends: Counter;
  private readonly requestDuration: Histogram;

  constructor(
    private readonly tracer: Tracer,
    meter: Meter,
    private readonly now: () => number = Date.now,
  ) {
    this.graphDuration = meter.createHistogram('dmhealth.graph.call.duration', { unit: 'ms', description: 'Microsoft Graph calls, retries included' });
    this.graphThrottled = meter.createCounter('dmhealth.graph.throttled', { description: 'Graph answers of 429 (throttled)' });
    this.loadDuration = meter.createHistogram('dmhealth.report.load.duration', { unit: 'ms', description: 'Report loads from Microsoft Graph' });
    this.loadFindings = meter.createHistogram('dmhealth.report.load.findings', { description: 'Findings per report load' });
    this.botSends = meter.createCounter('dmhealth.bot.sends', { description: "The bot's replies and posts, by outcome" });
    this.requestDuration = meter.createHistogram('dmhealth.http.server.duration', { unit: 'ms', description: 'Incoming requests, by route' });
  }

  /** A finished Graph call as a dependency (a client span that started `durationMs` ago). */
  graphCall(call: GraphCall): void {
    const attributes: Attributes = {
      'http.request.method': call.method,
      'url.template': call.pathTemplate,
      'server.address': 'graph.microsoft.com',
      'graph.attempts': call.attempts,
      'graph.retry_wait_ms': call.retryWaitMs,
      'graph.throttled': call.throttled,
      ...(call.status === undefined ? {} : { 'http.response.status_code': call.status }),
    };
    this.finishedSpan(`${call.method} ${call.pathTemplate}`, SpanKind.CLIENT, call.durationMs, attributes, call.ok);
    this.graphDuration.record(call.durationMs, { 'url.template': call.pathTemplate, 'http.response.status_code': call.status ?? 0 });
    if (call.throttled > 0) this.graphThrottled.add(call.throttled, { 'url.template': call.pathTemplate });
  }

  reportLoaded(load: ReportLoadOutcome): void {
    const attributes: Attributes = { 'report.id': load.report, 'report.state': load.state, 'report.records': load.records, 'report.findings': load.findings };
    this.finishedSpan(`report load ${load.report}`, SpanKind.INTERNAL, load.durationMs, attributes, load.state !== 'load-error');
    this.loadDuration.record(load.durationMs, { 'report.id': load.report, 'report.state': load.state });
    this.loadFindings.record(load.findings, { 'report.id': load.report });
  }

  botSend(send: BotSendOutcome): void {
    const attributes: Attributes = { 'bot.send.kind': send.kind, 'bot.send.activities': send.activities, 'bot.send.outcome': send.ok ? 'sent' : 'failed' };
    if (send.status !== undefined) attributes['http.response.status_code'] = send.status;
    this.finishedSpan(`bot ${send.kind}`, SpanKind.CLIENT, send.durationMs, attributes, send.ok);
    this.botSends.add(1, { 'bot.send.kind': send.kind, 'bot.send.outcome': send.ok ? 'sent' : 'failed' });
  }

  /** An incoming request by its route template (`/api/reports/:id`), never its path, which may hold ids. */
  request(request: { method: string; route: string; status: number; durationMs: number }): void {
    const attributes: Attributes = { 'http.request.method': request.method, 'http.route': request.route, 'http.response.status_code': request.status };
    this.finishedSpan(`${request.method} ${request.route}`, SpanKind.SERVER, request.durationMs, attributes, request.status < 500);
    this.requestDuration.record(request.durationMs, attributes);
  }

  private finishedSpan(name: string, kind: SpanKind, durationMs: number, attributes: Attributes, ok: boolean): void {
    const end = this.now();
    const span = this.tracer.startSpan(name, { kind, attributes, startTime: end - durationMs });
    span.setStatus({ code: ok ? SpanStatusCode.OK : SpanStatusCode.ERROR });
    span.end(end);
  }
}

/**
 * Starts the Azure Monitor distribution with the connection string and answers the Telemetry that
 * reports through it, and how to flush and stop it. Its automatic instrumentations are off: they
 * would record outgoing URLs (a token request names the tenant, a blob its path) and incoming
 * paths; the spans above say what is needed in templates. Live metrics are off too. Unless the
 * operator allows them (`TELEMETRY_SDK_ENDPOINTS=allow`), the only host it reaches is the ingestion
 * endpoint the connection string names (telemetry-egress.ts).
 */
export async function startAzureMonitor(
  connectionString: string,
  options: { sdkOwnEndpoints: boolean; log: (line: string) => void },
): Promise<{ telemetry: Telemetry; shutdown: () => Promise<void> }> {
  let lift = () => {};
  if (!options.sdkOwnEndpoints) {
    // The SDK's reports on itself have switches, which save it the refused attempts; OneSettings
    // and the metadata probe have none, so the guard refuses them (telemetry-egress.ts).
    process.env.APPLICATIONINSIGHTS_STATSBEAT_DISABLED = 'true';
    process.env.APPLICATION_INSIGHTS_NO_STATSBEAT = 'true';
    process.env.APPLICATIONINSIGHTS_SDKSTATS_DISABLED = 'true';
    const told = new Set<string>();
    lift = refuseSdkOwnEndpoints(connectionString, (host) => {
      if (told.has(host)) return;
      told.add(host);
      options.log(`telemetry: refused the SDK's own connection to ${host} (TELEMETRY_SDK_ENDPOINTS=allow permits it)`);
    });
  }
  const { useAzureMonitor, shutdownAzureMonitor } = await import('@azure/monitor-opentelemetry');
  useAzureMonitor({
    azureMonitorExporterOptions: { connectionString },
    // Every span is sent: the distribution's default keeps 5 traces a second, and each span here is a
    // trace of its own, so a load's hundred Graph calls would be cut to a sample at random.
    samplingRatio: 1,
    tracesPerSecond: 0,
    enableLiveMetrics: false,
    enableStandardMetrics: false,
    enablePerformanceCounters: false,
    instrumentationOptions: {
      http: { enabled: false },
      azureSdk: { enabled: false },
      mongoDb: { enabled: false },
      mySql: { enabled: false },
      postgreSql: { enabled: false },
      redis: { enabled: false },
      redis4: { enabled: false },
      bunyan: { enabled: false },
      winston: { enabled: false },
    },
  });
  return {
    telemetry: new Telemetry(trace.getTracer('device-management-health'), metrics.getMeter('device-management-health')),
    shutdown: async () => {
      await shutdownAzureMonitor();
      lift();
    },
  };
}
