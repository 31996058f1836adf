/**
 * The built renderer as both shells serve it (browser mode over HTTP, the desktop over the
 * app:// protocol): a file inside the renderer directory, never outside it, with its
 * content type; unknown paths get the app's page so deep links survive a reload.
 */
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
}

/** The asset at `pathname`, the app's page for unknown paths, or null when nothing is built. */
export async function loadRendererAsset(
  rootDir: string,
  pathname: string,
): Promise<RendererAsset | null> {
  const file = resolveInside(rootDir, pathname);
  const body = file === null ? undefined : await readIfFile(file);
  if (body !== undefined && file !== null) {
    return { body, contentType: CONTENT_TYPES[extname(file)] ?? 'application/octet-stream' };
  }
  const page = await readIfFile(join(rootDir, 'index.html'));
  return page === undefined
    ? null
    : { body: page, contentType: CONTENT_TYPES['.html'] ?? 'text/html' };
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
