/**
 * A feed's start as a person writes it: `24h`, `7d`, `90m`, a date (`2026-12-01`, midnight UTC) or
 * an instant (`2026-12-01T09:00:00Z`). Never further back than the audit log keeps (one year,
 * audit-story.ts) nor in the future.
 */

import { AUDIT_RETENTION_DAYS } from '../audit-story/audit-story.js';

const UNIT_MS = { m: 60_000, h: 3_600_000, d: 86_400_000, w: 7 * 86_400_000 } as const;

export type SinceReading = { ok: true; since: Date } | { ok: false; message: string };

export function readSince(text: string, now: Date): SinceReading {
  const value = text.trim();
  const retention = now.getTime() - AUDIT_RETENTION_DAYS * UNIT_MS.d;
  const ago = /^(\d{1,6})\s*([mhdw])$/i.exec(value);
  let since: number;
  if (ago) since = now.getTime() - Number(ago[1]) * UNIT_MS[ago[2]!.toLowerCase() as keyof typeof UNIT_MS];
  else if (/^\d{4}-\d{2}-\d{2}$/.test(value)) since = Date.parse(`${value}T00:00:00Z`);
  else if (/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,3})?)?(Z|[+-]\d{2}:\d{2})$/.test(value)) since = Date.parse(value);
  else return { ok: false, message: `"${value}" is not a time: write 24h, 7d, 90m, 2w, a date (2026-12-01) or an instant (2026-12-01T09:00:00Z)` };
  if (Number.isNaN(since)) return { ok: false, message: `"${value}" is not a date` };
  if (since > now.getTime()) return { ok: false, message: `"${value}" is in the future` };
  if (since < retention) return { ok: false, message: `"${value}" is more than ${AUDIT_RETENTION_DAYS} days back: Intune keeps its audit log for one year` };
  return { ok: true, since: new Date(since) };
}
