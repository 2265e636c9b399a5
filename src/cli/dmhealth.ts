#!/usr/bin/env node
import { runCli } from './cli-commands.js';

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
