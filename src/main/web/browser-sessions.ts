/**
 * Browser mode's sessions. The first page load of a browser gets a random session id in an
 * HttpOnly, SameSite=Strict cookie (named per port: cookies are shared across a host's ports),
 * and every socket that browser opens carries it: its tabs share one session, another browser
 * (a colleague opening the shared link) has its own and starts read-only. Each session has a
 * public name for the audit log and the console ('browser 3f9a1c'); the id itself is never
 * shown. A socket without a well-formed cookie (a script, an old page) is a session of its
 * own, ended with the socket. At most `maxSessions` are kept, the least recently used
 * forgotten first; a forgotten or ended session's operator switches end with it.
 */
import { randomBytes } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import type { Session } from '../services/caller';
import { cookieValue, strictCookie } from './cookies';

export const MAX_BROWSER_SESSIONS = 256;
/** 24 random bytes in base64url, as `newSessionId` makes them. */
const SESSION_ID = /^[A-Za-z0-9_-]{32}$/;

export interface SocketSession {
  readonly session: Session;
  /** True for a session of this socket alone: end it when the socket closes. */
  readonly ownedBySocket: boolean;
}

export class BrowserSessions {
  /** Map order is use order: the first is the least recently used. */
  private readonly sessions = new Map<string, Session>();

  constructor(
    private readonly onEnd: (session: Session) => void,
    private readonly maxSessions = MAX_BROWSER_SESSIONS,
  ) {}

  /** The cookie naming the session for a server on `port`. */
  static cookieName(port: number): string {
    return `cairn_session_${port}`;
  }

  /**
   * The session of a page request: the one its cookie names (kept, or adopted when the server
   * restarted under an open page), or a new one with the `Set-Cookie` value to answer with.
   */
  forPage(request: IncomingMessage, port: number): { session: Session; setCookie: string | null } {
    const offered = this.offered(request, port);
    if (offered !== null) return { session: this.use(offered), setCookie: null };
    const id = randomBytes(24).toString('base64url');
    return {
      session: this.use(id),
      setCookie: strictCookie(BrowserSessions.cookieName(port), id),
    };
  }

  /** The session of a WebSocket upgrade (no cookie can be set on it). */
  forSocket(request: IncomingMessage, port: number): SocketSession {
    const offered = this.offered(request, port);
    if (offered !== null) return { session: this.use(offered), ownedBySocket: false };
    const id = `socket-${randomBytes(16).toString('base64url')}`;
    return { session: { id, name: `socket ${publicTag()}` }, ownedBySocket: true };
  }

  /** Ends a session of one socket, once its socket closed. */
  endSocketSession(owned: SocketSession): void {
    if (owned.ownedBySocket) this.onEnd(owned.session);
  }

  private offered(request: IncomingMessage, port: number): string | null {
    const id = cookieValue(request, BrowserSessions.cookieName(port));
    return id !== null && SESSION_ID.test(id) ? id : null;
  }

  private use(id: string): Session {
    const known = this.sessions.get(id);
    const session = known ?? { id, name: `browser ${publicTag()}` };
    this.sessions.delete(id);
    this.sessions.set(id, session);
    for (const [oldest, forgotten] of this.sessions) {
      if (this.sessions.size <= this.maxSessions) break;
      this.sessions.delete(oldest);
      this.onEnd(forgotten);
    }
    return session;
  }
}

/** A short random tag naming a session in public, unrelated to its secret id. */
function publicTag(): string {
  return randomBytes(3).toString('hex');
}
