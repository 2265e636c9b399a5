#!/usr/bin/env node
import * as nodeModule from 'node:module';

// Node keeps the command's compiled code on disk (in the system's temporary folder) and reuses it,
// so each run after the first starts about a quarter sooner (docs/performance.md, "The command
// line's start-up"). It must be on before the command's modules load, which is why they load below.
// A Node older than the 22 `engines` asks for has no such cache, and runs the command without it.
if ('enableCompileCache' in nodeModule) nodeModule.enableCompileCache();

const { runCli } = await import('./cli-commands.js');

// `dmhealth report … | head` closes the pipe early; that ends the output, it is not a failure.
process.stdout.on('error', (error: NodeJS.ErrnoException) => {
  if (error.code === 'EPIPE') process.exit(process.exitCode ?? 0);
  throw error;
});

runCli(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    console.error('dmhealth: unexpected failure:', error);
    process.exitCode = 1;
  },
);
