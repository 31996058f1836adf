/** Reading one cookie of a request, never throwing on what a client sends. */
import type { IncomingMessage } from 'node:http';

/** The value of cookie `name`, decoded; null when absent or malformed. */
export function cookieValue(request: IncomingMessage, name: string): string | null {
  const cookies = request.headers.cookie ?? '';
  for (const part of cookies.split(';')) {
    const [key, ...value] = part.trim().split('=');
    if (key === name) return decodedCookie(value.join('='));
  }
  return null;
}

/** A cookie value as sent; a malformed percent-escape is no value at all, never a throw. */
function decodedCookie(value: string): string | null {
  try {
    return decodeURIComponent(value);
  } catch {
    return null;
  }
}

/** A cookie only this origin's pages send back, never readable by script. */
export function strictCookie(name: string, value: string): string {
  return `${name}=${encodeURIComponent(value)}; HttpOnly; SameSite=Strict; Path=/`;
}
