/**
 * Whether a socket's remote address is this machine. Without Bot Framework credentials the bot,
 * and without a key the demo sign-in, answer this machine only.
 */
export function isLoopback(address: string | undefined): boolean {
  return address === '127.0.0.1' || address === '::1' || address === '::ffff:127.0.0.1';
}
