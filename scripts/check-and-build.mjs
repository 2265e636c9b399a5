#!/usr/bin/env node
// npm test's steps before the suite, two at a time (docs/development.md, "Node, the build and the
// tests"): the format check, the typecheck, lint and the build are each a single-threaded process,
// so on two cores two lanes take about half the time one line of them did. Each step's output is
// printed whole when it ends, under its name, so two steps never interleave their lines; every step
// runs even when another fails, so one run shows every problem, and the exit status is the first
// failing step's (0 when all pass).
import { Buffer } from 'node:buffer';
import { spawn } from 'node:child_process';

/** The lanes, each run in order, of about equal length (typecheck and build the longest steps). */
const LANES = [
  ['typecheck', 'format:check'],
  ['build', 'lint'],
];

/** Runs `npm run <script>`, its output kept until it ends; resolves to its exit status (1 for a signal). */
function runScript(script) {
  const started = Date.now();
  const npmCli = process.env.npm_execpath;
  const [command, args] = npmCli ? [process.execPath, [npmCli, 'run', '--silent', script]] : ['npm', ['run', '--silent', script]];
  return new Promise((resolve) => {
    const child = spawn(command, args, { stdio: ['ignore', 'pipe', 'pipe'] });
    const output = [];
    child.stdout.on('data', (chunk) => output.push(chunk));
    child.stderr.on('data', (chunk) => output.push(chunk));
    child.on('error', (error) => output.push(Buffer.from(`${script} could not be started: ${error.message}\n`)));
    child.on('close', (code) => {
      const status = code ?? 1;
      const text = Buffer.concat(output).toString('utf8');
      const seconds = ((Date.now() - started) / 1000).toFixed(0);
      process.stdout.write(`== ${script}: ${status === 0 ? 'passed' : `failed (exit status ${status})`} in ${seconds} s\n${text}${text.endsWith('\n') || text === '' ? '' : '\n'}`);
      resolve(status);
    });
  });
}

async function runLane(scripts) {
  const statuses = [];
  for (const script of scripts) statuses.push(await runScript(script));
  return statuses;
}

const statuses = (await Promise.all(LANES.map(runLane))).flat();
process.exitCode = statuses.find((status) => status !== 0) ?? 0;
