import { InMemoryMetricExporter, AggregationTemporality, MeterProvider, PeriodicExportingMetricReader } from '@opentelemetry/sdk-metrics';
import { BasicTracerProvider, InMemorySpanExporter, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-base';
import type { ReadableSpan } from '@opentelemetry/sdk-trace-base';
import { SpanKind } from '@opentelemetry/api';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createServices } from '../../src/app/create-services.js';
import { connectToDemoTenant } from '../../src/app/graph-connection.js';
import type { GraphConnection } from '../../src/app/graph-connection.js';
import { Telemetry } from '../../src/app/telemetry.js';
import { startSimulator } from '../../src/sim/simulator.js';
import type { Simulator } from '../../src/sim/simulator.js';
import { buildDemoTenant } from '../../src/sim/tenants/demo-tenant.js';

const spans = new InMemorySpanExporter();
const tracerProvider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(spans)] });
const metricExporter = new InMemoryMetricExporter(AggregationTemporality.CUMULATIVE);
const metricReader = new PeriodicExportingMetricReader({ exporter: metricExporter, exportIntervalMillis: 3_600_000 });
const meterProvider = new MeterProvider({ readers: [metricReader] });
const telemetry = new Telemetry(tracerProvider.getTracer('test'), meterProvider.getMeter('test'));

let sim: Simulator;
let connection: GraphConnection;
/** Every value of the tenant's own a span must never carry: its id, names, devices and users. */
let tenantValues: string[];

beforeAll(async () => {
  sim = await startSimulator({ tenant: buildDemoTenant() });
  // Waits between attempts are counted, not slept: the client's sleep is the test's.
  connection = connectToDemoTenant(sim, { clientOptions: { onCall: (call) => telemetry.graphCall(call), sleep: async () => undefined } });
  const devices = sim.tenant.collections.managedDevices as Array<Record<string, unknown>>;
  tenantValues = [
    sim.tenantId,
    sim.tenant.displayName,
    sim.tenant.domain,
    ...devices.flatMap((device) => [device.deviceName, device.userPrincipalName, device.userDisplayName, device.id, device.serialNumber]),
  ].filter((value): value is string => typeof value === 'string' && value.length > 2);
});

afterAll(async () => {
  await connection?.close();
  await sim?.close();
  await tracerProvider.shutdown();
  await meterProvider.shutdown();
});

function attributeValues(span: ReadableSpan): string[] {
  return [span.name, ...Object.values(span.attributes).map(String)];
}

describe('telemetry', () => {
  it('records each Graph call as a dependency by path template, with its status, retries and throttling wait, and each report load', async () => {
    sim.faults.add({ path: '/v1.0/deviceManagement/managedDevices', status: 429, retryAfterSeconds: 2, times: 1 });
    const services = createServices({ connection, log: () => undefined, onReportLoaded: (load) => telemetry.reportLoaded(load) });
    const result = await services.reports.loadFresh(['escrow-gaps']);
    expect(result[0]!.state).toBe('loaded');

    const finished = spans.getFinishedSpans();
    const graphCalls = finished.filter((span) => span.kind === SpanKind.CLIENT);
    expect(graphCalls.length).toBeGreaterThan(0);
    for (const span of graphCalls) {
      expect(span.attributes['url.template']).toMatch(/^\/(v1\.0|beta)\//);
      expect(String(span.attributes['url.template'])).not.toMatch(/[0-9a-f]{8}-[0-9a-f]{4}-/i);
      expect(span.attributes['url.template']).not.toContain('?');
    }
    const throttled = graphCalls.find((span) => span.attributes['url.template'] === '/v1.0/deviceManagement/managedDevices');
    expect(throttled?.attributes).toMatchObject({ 'http.request.method': 'GET', 'http.response.status_code': 200, 'graph.attempts': 2, 'graph.throttled': 1 });
    // Retry-After's two seconds at least (the policy adds a little jitter).
    expect(throttled!.attributes['graph.retry_wait_ms']).toBeGreaterThanOrEqual(2000);

    const load = finished.find((span) => span.name === 'report load escrow-gaps');
    expect(load?.attributes).toMatchObject({
      'report.id': 'escrow-gaps',
      'report.state': 'loaded',
      'report.records': result[0]!.rows.length,
      'report.findings': result[0]!.findings.length,
    });
    expect(load!.attributes['report.findings']).toBeGreaterThan(0);
  });

  it("records the bot's sends and incoming requests by route template", () => {
    telemetry.botSend({ kind: 'post', activities: 1, ok: false, status: 403, durationMs: 12 });
    telemetry.request({ method: 'GET', route: '/api/reports/:id', status: 200, durationMs: 5 });
    const finished = spans.getFinishedSpans();
    expect(finished.find((span) => span.name === 'bot post')?.attributes).toEqual({
      'bot.send.kind': 'post',
      'bot.send.activities': 1,
      'bot.send.outcome': 'failed',
      'http.response.status_code': 403,
    });
    expect(finished.find((span) => span.kind === SpanKind.SERVER)?.attributes).toEqual({
      'http.request.method': 'GET',
      'http.route': '/api/reports/:id',
      'http.response.status_code': 200,
    });
  });

  it('carries no tenant data in any span', () => {
    const finished = spans.getFinishedSpans();
    expect(finished.length).toBeGreaterThan(3);
    for (const span of finished) for (const value of attributeValues(span)) for (const secret of tenantValues) expect(value).not.toContain(secret);
  });

  it('keeps metrics: Graph call durations, throttled answers, load durations and findings, bot sends', async () => {
    await metricReader.forceFlush();
    const names = new Set(metricExporter.getMetrics().flatMap((resource) => resource.scopeMetrics.flatMap((scope) => scope.metrics.map((metric) => metric.descriptor.name))));
    for (const name of [
      'dmhealth.graph.call.duration',
      'dmhealth.graph.throttled',
      'dmhealth.report.load.duration',
      'dmhealth.report.load.findings',
      'dmhealth.bot.sends',
      'dmhealth.http.server.duration',
    ]) {
      expect(names).toContain(name);
    }
  });
});
