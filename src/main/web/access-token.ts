/** The browser mode's access token: random per run, compared in constant time. */
import { randomBytes, timingSafeEqual } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import { cookieValue } from './cookies';

export const TOKEN_COOKIE = 'cairn_token';

export function newAccessToken(): string {
  return randomBytes(24).toString('base64url');
}

export function tokenMatches(expected: string, offered: string | null | undefined): boolean {
  if (typeof offered !== 'string') return false;
  const a = Buffer.from(expected);
  const b = Buffer.from(offered);
  return a.length === b.length && timingSafeEqual(a, b);
}

/** The token a request carries, in its query string or in the cookie set on first visit. */
export function offeredToken(request: IncomingMessage, url: URL): string | null {
  return url.searchParams.get('token') ?? cookieValue(request, TOKEN_COOKIE);
}

/** Only loopback host names are served: a page on another origin cannot rebind to us. */
export function isLoopbackHost(hostHeader: string | undefined, port: number): boolean {
  return hostHeader === `127.0.0.1:${port}` || hostHeader === `localhost:${port}`;
}
