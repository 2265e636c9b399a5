import { createHash, timingSafeEqual } from 'node:crypto';

/**
 * Checks `Authorization: Bearer <NOTIFY_API_KEY>` in constant time: both sides are hashed first,
 * so neither the key's content nor its length leaks through how long a comparison takes.
 */
export function createNotifyKeyCheck(apiKey: string): (authorization: string | undefined) => boolean {
  const expected = createHash('sha256').update(apiKey, 'utf8').digest();
  return (authorization) => {
    const presented = /^Bearer (.+)$/.exec(authorization?.trim() ?? '')?.[1] ?? '';
    return timingSafeEqual(createHash('sha256').update(presented, 'utf8').digest(), expected);
  };
}
