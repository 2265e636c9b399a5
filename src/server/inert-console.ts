import { format } from 'node:util';
import { inertLogLine } from '../app/log-line.js';

/** The console methods that write a line; each is made to write it inert. */
const LINE_METHODS = ['log', 'info', 'warn', 'error', 'debug'] as const;

/**
 * Makes every line the server's process writes through `console` one inert line (log-line.ts),
 * whoever writes it. The server's own lines are already inert; the packages it runs write raw
 * text: botbuilder's CloudAdapter writes an error it could not send a reply with (`console.error`),
 * and that error quotes what the Bot Connector answered, so a line feed or an escape sequence in the
 * answer would become a forged log line. Called first thing in `main.ts`, before any package runs.
 */
export function makeConsoleInert(target: Console = console): void {
  for (const method of LINE_METHODS) {
    const write = target[method].bind(target);
    target[method] = (...args: unknown[]) => write(inertLogLine(format(...args)));
  }
}
