// `node --import <this file> dist/server/main.js`: the server on a clock the test sets. The hooks
// swap one module, the scheduler's clock (src/server/scheduler-clock.ts), for clock.mjs here.
import { register } from 'node:module';

register('./hooks.mjs', import.meta.url);
