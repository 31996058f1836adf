/**
 * The built renderer as both shells serve it (browser mode over HTTP, the desktop over the
 * app:// protocol): a file inside the renderer directory, never outside it, with its
 * content type; unknown paths get the app's page so deep links survive a reload.
 */
import { randomBytes } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { extname, join, normalize, sep } from 'node:path';

const CONTENT_TYPES: Readonly<Record<string, string>> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.json': 'application/json',
  '.woff2': 'font/woff2',
};

export interface RendererAsset {
  readonly body: Buffer;
  readonly contentType: string;
  /** The app's page only: the fresh nonce written into it, for the CSP's style-src. */
  readonly styleNonce?: string;
}

/** Written in index.html's `cairn-style-nonce` meta tag; replaced by each page served. */
export const STYLE_NONCE_PLACEHOLDER = '__CAIRN_STYLE_NONCE__';

/** The asset at `pathname`, the app's page for unknown paths, or null when nothing is built. */
export async function loadRendererAsset(
  rootDir: string,
  pathname: string,
): Promise<RendererAsset | null> {
  const file = resolveInside(rootDir, pathname);
  const body = file === null ? undefined : await readIfFile(file);
  if (body !== undefined && file !== null) {
    return extname(file) === '.html'
      ? withStyleNonce(body)
      : { body, contentType: CONTENT_TYPES[extname(file)] ?? 'application/octet-stream' };
  }
  const page = await readIfFile(join(rootDir, 'index.html'));
  return page === undefined ? null : withStyleNonce(page);
}

/** A page with a nonce of its own: a nonce reused across pages would admit any of them. */
function withStyleNonce(page: Buffer): RendererAsset {
  const styleNonce = randomBytes(18).toString('base64');
  return {
    body: Buffer.from(page.toString('utf8').replaceAll(STYLE_NONCE_PLACEHOLDER, styleNonce)),
    contentType: CONTENT_TYPES['.html'] ?? 'text/html',
    styleNonce,
  };
}

function resolveInside(rootDir: string, pathname: string): string | null {
  let decoded: string;
  try {
    decoded = decodeURIComponent(pathname);
  } catch {
    return null;
  }
  const root = normalize(rootDir);
  const candidate = normalize(join(root, decoded));
  return candidate.startsWith(root + sep) ? candidate : null;
}

async function readIfFile(path: string): Promise<Buffer | undefined> {
  try {
    return await readFile(path);
  } catch {
    return undefined;
  }
}
