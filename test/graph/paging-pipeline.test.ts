import { Agent, request } from 'undici';
import { describe, expect, it } from 'vitest';
import { peekNextLink } from '../../src/graph/graph-client.js';
import { blankTenant, managedDevice, requestAppToken, useTestSimulator } from '../support/simulated-tenant.js';

const DEVICES = '/v1.0/deviceManagement/managedDevices';
const harness = useTestSimulator({
  tenant: blankTenant({ collections: { ...blankTenant().collections, managedDevices: Array.from({ length: 500 }, (_, index) => managedDevice(index)) } }),
  pageSizes: { managedDevices: 100 },
});

/** Waits, for at most `ms`, until `condition` holds. */
async function eventually(condition: () => boolean, ms = 3000): Promise<boolean> {
  const deadline = Date.now() + ms;
  while (Date.now() < deadline) {
    if (condition()) return true;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  return condition();
}

const deviceRequests = () => harness.sim.graph.requests.filter((entry) => entry.path === DEVICES);

describe('peekNextLink', () => {
  it('reads the link Graph writes ahead of value', () => {
    expect(peekNextLink('{"@odata.context":"https://g/$metadata#x","@odata.nextLink":"https://g/v1.0/x?$skiptoken=a","value":[{"id":"1"}')).toBe('https://g/v1.0/x?$skiptoken=a');
  });

  it('answers undefined when the link is not ahead of value or the head is not plain properties', () => {
    expect(peekNextLink('{"@odata.context":"c","value":[],"@odata.nextLink":"https://g/next"}')).toBeUndefined();
    expect(peekNextLink('{"@odata.context":"c","value":[')).toBeUndefined();
    expect(peekNextLink('{"a":{"b":1,"value":[]},"value":[')).toBeUndefined();
    expect(peekNextLink('{"@odata.nextLink":"https://g/ne')).toBeUndefined();
  });
});

describe('paging', () => {
  it('requests the next page while the reader still holds the current one, and never more than one ahead', async () => {
    const graph = harness.client();
    const pages = graph.pages<{ id: string }>(DEVICES);
    const first = await pages.next();
    expect(first.value?.items).toHaveLength(100);
    // The reader has not asked for page 2, yet its request is on its way.
    expect(await eventually(() => deviceRequests().length === 2)).toBe(true);
    await new Promise((resolve) => setTimeout(resolve, 150));
    expect(deviceRequests()).toHaveLength(2);

    let read = 100;
    for await (const page of pages) read += page.items.length;
    expect(read).toBe(500);
    // Five pages, five requests: reading ahead never repeats one.
    expect(deviceRequests()).toHaveLength(5);
  });

  it('refuses a next page on another host before sending anything to it, even when read ahead', async () => {
    harness.sim.faults.add({ path: DEVICES, nextLinkOrigin: 'https://graph.example.invalid', times: 1 });
    const graph = harness.client();
    await expect(graph.getAll(DEVICES)).rejects.toMatchObject({ name: 'GraphError', kind: 'malformed-response', message: expect.stringContaining('graph.example.invalid') });
    expect(deviceRequests()).toHaveLength(1);
  });
});

describe('nextLink', () => {
  it('refuses a next page on another resource of the same host as malformed, and sends nothing there', async () => {
    harness.sim.faults.add({ path: DEVICES, nextLinkPath: '/v1.0/deviceManagement/deviceConfigurations', times: 1 });
    const graph = harness.client();
    await expect(graph.getAll(DEVICES)).rejects.toMatchObject({ name: 'GraphError', kind: 'malformed-response', message: expect.stringContaining('another resource') });
    expect(harness.sim.graph.requests.map((entry) => entry.path)).toEqual([DEVICES]);
  });
});

describe('compression', () => {
  it('the simulated Graph compresses a page when the client accepts gzip, as Graph does, and leaves small answers alone', async () => {
    const token = await requestAppToken(harness.sim);
    const dispatcher = new Agent({ connect: { ca: harness.sim.caPem } });
    try {
      const get = (path: string, encoding: string | undefined) =>
        request(`${harness.sim.graphUrl}${path}`, {
          headers: { authorization: `Bearer ${token}`, 'user-agent': 'test', ...(encoding ? { 'accept-encoding': encoding } : {}) },
          dispatcher,
        });
      const gzipped = await get(DEVICES, 'gzip, deflate');
      expect(gzipped.headers['content-encoding']).toBe('gzip');
      await gzipped.body.arrayBuffer();
      const plain = await get(DEVICES, undefined);
      expect(plain.headers['content-encoding']).toBeUndefined();
      expect(((await plain.body.json()) as { value: unknown[] }).value).toHaveLength(100);
    } finally {
      await dispatcher.close();
    }
  });
});
