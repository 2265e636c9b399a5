/**
 * Whether a socket's remote address is this machine. Without Bot Framework credentials the bot,
 * and without a key the demo sign-in, answer this machine only.
 */
export function isLoopback(address: string | undefined): boolean {
  return address === '127.0.0.1' || address === '::1' || address === '::ffff:127.0.0.1';
}

/**
 * Whether a request's `Host` names this machine: `localhost` or a loopback address, with or without
 * a port. A page on another site that has made its own name resolve to 127.0.0.1 (DNS rebinding)
 * reaches a loopback server from this machine, but under its own name, which this refuses.
 */
export function isLoopbackHost(host: string | undefined): boolean {
  const name = /^(\[[^\]]*\]|[^:]*)(:\d{1,5})?$/.exec(host?.trim().toLowerCase() ?? '')?.[1];
  if (name === undefined) return false;
  if (name === 'localhost' || name === '[::1]') return true;
  const octets = /^127\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/.exec(name);
  return octets !== null && octets.slice(1).every((octet) => Number(octet) <= 255);
}
