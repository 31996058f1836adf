/**
 * The target of an HTTP request as a URL, parsed without ever throwing: a client can send
 * any bytes as the request target (`//`, `http://[`), and a bad one is the client's 400, not
 * an exception in the process that hosts the engine.
 */
import type { IncomingMessage } from 'node:http';

export function requestTarget(request: IncomingMessage, port: number): URL | null {
  const target = request.url ?? '/';
  // Only origin-form targets ("/path?query") are ours; "//host" would be read as a host.
  if (!target.startsWith('/') || target.startsWith('//')) return null;
  try {
    return new URL(target, `http://127.0.0.1:${port}`);
  } catch {
    return null;
  }
}
