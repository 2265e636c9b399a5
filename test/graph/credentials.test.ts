import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createClientCertificate } from '../../src/sim/certificates.js';
import type { Simulator } from '../../src/sim/simulator.js';
import { ALL_REPORT_ROLES, useTestSimulator } from '../support/simulated-tenant.js';

const harness = useTestSimulator();
let sim: Simulator;
let directory: string;
beforeAll(() => {
  sim = harness.sim;
  directory = mkdtempSync(join(tmpdir(), 'dmhealth-credentials-'));
});
afterAll(() => rmSync(directory, { recursive: true, force: true }));

it('signs in with a certificate: msal-node sends a client assertion the authority verifies', async () => {
  const certificate = await createClientCertificate('dmhealth-test');
  const app = sim.addApplication({ roles: ALL_REPORT_ROLES, certificates: [{ thumbprintSha256: certificate.thumbprintSha256, publicKeyPem: certificate.publicKeyPem }] });
  const pemPath = join(directory, 'app.pem');
  writeFileSync(pemPath, `${certificate.privateKeyPem}\n${certificate.certificatePem}`, { mode: 0o600 });

  const graph = harness.client({ clientId: app.clientId, credential: { kind: 'certificate', pemPath } });
  await expect(graph.get('/v1.0/deviceManagement/managedDevices')).resolves.toMatchObject({ value: [] });
});

it('refuses a certificate the app registration does not hold', async () => {
  const registered = await createClientCertificate('registered');
  const other = await createClientCertificate('other');
  const app = sim.addApplication({ roles: ALL_REPORT_ROLES, certificates: [{ thumbprintSha256: registered.thumbprintSha256, publicKeyPem: registered.publicKeyPem }] });
  const pemPath = join(directory, 'other.pem');
  writeFileSync(pemPath, `${other.privateKeyPem}\n${other.certificatePem}`, { mode: 0o600 });

  const graph = harness.client({ clientId: app.clientId, credential: { kind: 'certificate', pemPath } });
  await expect(graph.get('/v1.0/deviceManagement/managedDevices')).rejects.toMatchObject({ kind: 'token', code: 'invalid_client' });
});

it('is trusted by a separate process through NODE_EXTRA_CA_CERTS, and only then', async () => {
  // A fresh Node process with default TLS settings, as the CLI or a test runner pointed at the simulator would be.
  const script = `const r = await fetch(${JSON.stringify(`${sim.graphUrl}/v1.0/deviceManagement/managedDevices`)}); console.log(r.status);`;
  const run = promisify(execFile);
  const trusted = await run(process.execPath, ['--input-type=module', '-e', script], { env: { ...process.env, NODE_EXTRA_CA_CERTS: sim.caPath } });
  expect(trusted.stdout.trim()).toBe('401');

  const untrusted = run(process.execPath, ['--input-type=module', '-e', script], { env: { ...process.env, NODE_EXTRA_CA_CERTS: '' } });
  await expect(untrusted).rejects.toThrow(/fetch failed|certificate/i);
});
