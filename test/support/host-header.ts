import { request } from 'node:http';

/**
 * A GET to a loopback server with the `Host` header given as it is, as a browser sends it for
 * whatever name it resolved. Neither fetch nor undici sends a `Host` they cannot parse; node:http,
 * told not to set its own, does.
 */
export function getWithHost(base: string, host: string, path: string): Promise<{ status: number; text: string }> {
  return new Promise((resolve, reject) => {
    const outgoing = request({ host: '127.0.0.1', port: new URL(base).port, path, headers: { host }, setHost: false }, (response) => {
      let text = '';
      response.setEncoding('utf8');
      response.on('data', (chunk: string) => (text += chunk));
      response.on('end', () => resolve({ status: response.statusCode ?? 0, text }));
    });
    outgoing.on('error', reject);
    outgoing.end();
  });
}
