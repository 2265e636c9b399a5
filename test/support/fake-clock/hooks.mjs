// Module resolution hooks (https://nodejs.org/api/module.html#customization-hooks): the built
// scheduler clock resolves to the fake one beside this file; everything else as Node resolves it.
import { URL } from 'node:url';

const FAKE_CLOCK = new URL('./clock.mjs', import.meta.url).href;

export async function resolve(specifier, context, nextResolve) {
  const resolved = await nextResolve(specifier, context);
  return resolved.url.endsWith('/dist/server/scheduler-clock.js') ? { url: FAKE_CLOCK, shortCircuit: true } : resolved;
}
