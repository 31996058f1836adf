/**
 * How a link names its connection: by what a colleague's Cairn also has, never by this
 * install's connection id. An S3 store is its bucket, root and endpoint host; a local
 * directory its path; the embedded store a fixed name (each install's own). Old links that
 * carry `connection=<id>` still read. Pure: reading and writing the link's parameters, and
 * finding the saved connections a link names. It never picks another connection when none
 * matches: the caller asks the user.
 */
import type { Connection } from '../../../shared/contract/connections';

export type ConnectionLink =
  /** The embedded store: the one a link names when it names none. */
  | { readonly kind: 'embedded' }
  /** An old link's connection id (`connection=<uuid>`): only this install resolves it. */
  | { readonly kind: 'saved'; readonly id: string }
  | { readonly kind: 'local'; readonly path: string }
  | {
      readonly kind: 's3';
      readonly bucket: string;
      /** The key prefix under the bucket, '' for the bucket's root. */
      readonly root: string;
      /**
       * The endpoint's origin (`http://127.0.0.1:7480`), null for AWS's own. Only its host
       * names the store (a colleague may reach it over another scheme); the scheme helps fill
       * in a new connection.
       */
      readonly endpoint: string | null;
    };

export const EMBEDDED_LINK: ConnectionLink = { kind: 'embedded' };

/** The id the embedded store has in every install (services/connections/connection-store). */
const EMBEDDED_ID = 'embedded';

/** The link's parameter names, so the route can tell them from a view's. */
export const CONNECTION_PARAMS = ['connection', 'dir', 'bucket', 'root', 'endpoint'] as const;

/** The connection a link's parameters name (the embedded store when they name none). */
export function readConnectionLink(params: URLSearchParams): ConnectionLink {
  const bucket = params.get('bucket');
  if (bucket) {
    const endpoint = params.get('endpoint');
    return {
      kind: 's3',
      bucket,
      root: trimSlashes(params.get('root') ?? ''),
      endpoint: endpoint ? endpointOrigin(endpoint) : null,
    };
  }
  const dir = params.get('dir');
  if (dir) return { kind: 'local', path: dir };
  const id = params.get('connection');
  if (id && id !== EMBEDDED_ID) return { kind: 'saved', id };
  return EMBEDDED_LINK;
}

/** Writes the link's parameters (none for the embedded store). */
export function writeConnectionLink(link: ConnectionLink, params: URLSearchParams): void {
  switch (link.kind) {
    case 'embedded':
      return;
    case 'saved':
      params.set('connection', link.id);
      return;
    case 'local':
      params.set('dir', link.path);
      return;
    case 's3':
      params.set('bucket', link.bucket);
      if (link.root !== '') params.set('root', link.root);
      if (link.endpoint !== null) params.set('endpoint', link.endpoint);
      return;
  }
}

/** How a link names a saved connection. */
export function linkOfConnection(connection: Connection): ConnectionLink {
  if (connection.builtIn) return EMBEDDED_LINK;
  if (connection.kind === 'local') return { kind: 'local', path: connection.path };
  return {
    kind: 's3',
    bucket: connection.bucket,
    root: trimSlashes(connection.root),
    endpoint: connection.endpoint === undefined ? null : endpointOrigin(connection.endpoint),
  };
}

/** True when both name the same store (the way `connectionsOfLink` matches). */
export function sameLink(a: ConnectionLink, b: ConnectionLink): boolean {
  switch (a.kind) {
    case 'embedded':
      return b.kind === 'embedded';
    case 'saved':
      return b.kind === 'saved' && a.id === b.id;
    case 'local':
      return b.kind === 'local' && samePath(a.path, b.path);
    case 's3':
      return (
        b.kind === 's3' &&
        a.bucket === b.bucket &&
        a.root === b.root &&
        hostOf(a.endpoint) === hostOf(b.endpoint)
      );
  }
}

/**
 * The saved connections that open the store a link names, in the list's order: empty when
 * none does (the caller asks; it never falls back to another connection).
 */
export function connectionsOfLink(
  link: ConnectionLink,
  connections: readonly Connection[],
): Connection[] {
  if (link.kind === 'saved') return connections.filter((connection) => connection.id === link.id);
  return connections.filter((connection) => {
    // The embedded store's own path also names it, for a link written as a directory.
    const named = linkOfConnection(connection);
    if (sameLink(link, named)) return true;
    return (
      link.kind === 'local' && connection.kind === 'local' && samePath(link.path, connection.path)
    );
  });
}

/** The store a link names, in words for the prompt when no saved connection opens it. */
export function describeLink(link: ConnectionLink): string {
  switch (link.kind) {
    case 'embedded':
      return 'the embedded store';
    case 'saved':
      return `a connection saved in another Cairn (id ${link.id})`;
    case 'local':
      return `the local directory ${link.path}`;
    case 's3':
      return `s3://${link.bucket}/${link.root} at ${link.endpoint === null ? 'AWS' : hostOf(link.endpoint)}`;
  }
}

function trimSlashes(text: string): string {
  return text.replace(/^\/+|\/+$/g, '');
}

function samePath(a: string, b: string): boolean {
  const normal = (path: string) => (path.length > 1 ? path.replace(/\/+$/, '') : path);
  return normal(a) === normal(b);
}

/** An endpoint as its origin; text that is no URL stays as given (it then matches itself only). */
function endpointOrigin(endpoint: string): string {
  try {
    return new URL(endpoint).origin;
  } catch {
    return endpoint;
  }
}

function hostOf(endpoint: string | null): string | null {
  if (endpoint === null) return null;
  try {
    return new URL(endpoint).host.toLowerCase();
  } catch {
    return endpoint.toLowerCase();
  }
}
