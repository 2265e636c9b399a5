import { describe, expect, it } from 'vitest';
import { inertLog, inertLogLine } from '../../src/app/log-line.js';

describe('a log line made inert', () => {
  it('writes line breaks, tabs and the terminal escape as their escapes, on one line', () => {
    const line = inertLogLine('set by Alex\nreport escrow-gaps: loaded\r\tok \u001b[31mred\u001b[0m');
    expect(line).toBe('set by Alex\\nreport escrow-gaps: loaded\\r\\tok \\u001b[31mred\\u001b[0m');
    for (const control of ['\n', '\r', '\t', '\u001b']) expect(line).not.toContain(control);
  });

  it('escapes every C0 control, DEL and every C1 control', () => {
    const controls = [...Array.from({ length: 0x20 }, (_, code) => code), ...Array.from({ length: 0x21 }, (_, index) => 0x7f + index)];
    const line = inertLogLine(controls.map((code) => String.fromCharCode(code)).join(''));
    expect(line).toMatch(/^[\x20-\x7e]+$/);
    expect(line).toContain('\\u0000');
    expect(line).toContain('\\u007f');
    expect(line).toContain('\\u0085');
    expect(line).toContain('\\u009b');
  });

  it('escapes the line and paragraph separators and the bidirectional controls that reorder a line', () => {
    const line = inertLogLine('a\u2028b\u2029c \u202Ecod.exe\u202C \u2066x\u2069 \u061C\u200E\u200F');
    expect(line).toBe('a\\u2028b\\u2029c \\u202ecod.exe\\u202c \\u2066x\\u2069 \\u061c\\u200e\\u200f');
  });

  it('leaves other text as it is: accents, other scripts, emoji, and backslashes', () => {
    const text = 'Zoë Müller · 山田 太郎 · 👩‍💻 · C:\\Users\\zoe · "quoted"';
    expect(inertLogLine(text)).toBe(text);
  });

  it('changes nothing the second time, so a log wrapped twice reads the same', () => {
    const once = inertLogLine('name\nwith\u001b escape');
    expect(inertLogLine(once)).toBe(once);
  });

  it('hands the log every line made inert', () => {
    const lines: string[] = [];
    const log = inertLog((line) => lines.push(line));
    log('one\ntwo');
    expect(lines).toEqual(['one\\ntwo']);
  });
});
