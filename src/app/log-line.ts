/**
 * Whether a UTF-16 unit would let text in a log line do more than read as text: the C0 controls
 * (line feed, carriage return and tab among them), DEL and the C1 controls (NEL, and the CSI that
 * starts a terminal escape sequence), the Unicode line and paragraph separators, and the
 * bidirectional embeddings, overrides, isolates and marks that make a line read in another order
 * than it was written (CVE-2021-42574, "Trojan Source").
 */
function notInert(code: number): boolean {
  return (
    code <= 0x1f ||
    (code >= 0x7f && code <= 0x9f) ||
    code === 0x061c ||
    code === 0x200e ||
    code === 0x200f ||
    code === 0x2028 ||
    code === 0x2029 ||
    (code >= 0x202a && code <= 0x202e) ||
    (code >= 0x2066 && code <= 0x2069)
  );
}

const SHORT_ESCAPES: Readonly<Record<string, string>> = { '\n': '\\n', '\r': '\\r', '\t': '\\t' };

/**
 * A log line as one line of plain text. Log lines carry what tenants and users wrote (a Teams display
 * name, a token's user name, a channel's name, a tenant id from a request's body); a line feed in one
 * would start a forged line of its own, and an escape sequence would drive the terminal reading the
 * log. Each such character is written as its escape instead (`\n`, `\u001b`), so the line says what
 * was sent and stays one line. A backslash is left as it is: escaping a line twice changes nothing,
 * so a log wrapped twice (a test's over the server's) reads the same; the line is for people to read,
 * not to be decoded.
 */
export function inertLogLine(line: string): string {
  let inert = '';
  // Every character escaped is one UTF-16 unit and none is a surrogate, so a surrogate pair is copied whole.
  for (let index = 0; index < line.length; index++) {
    const code = line.charCodeAt(index);
    inert += notInert(code) ? (SHORT_ESCAPES[line[index]!] ?? `\\u${code.toString(16).padStart(4, '0')}`) : line[index];
  }
  return inert;
}

/** A log that writes every line inert (`inertLogLine`): what a composition root hands to the parts it assembles. */
export function inertLog(log: (line: string) => void): (line: string) => void {
  return (line) => log(inertLogLine(line));
}
