/**
 * The desktop serves its renderer from the app:// scheme (never a remote URL or file://),
 * with the same CSP as browser mode. The protocol object is passed in: no Electron import.
 */
import { contentSecurityPolicy } from '../../shared/csp';
import { loadRendererAsset } from '../renderer-assets';

export const APP_SCHEME = 'app';
export const APP_ORIGIN = `${APP_SCHEME}://cairn`;
export const APP_ENTRY_URL = `${APP_ORIGIN}/index.html`;

export const APP_SCHEME_PRIVILEGES = {
  scheme: APP_SCHEME,
  privileges: { standard: true, secure: true, supportFetchAPI: true },
} as const;

export interface ProtocolLike {
  handle(scheme: string, handler: (request: Request) => Promise<Response>): void;
}

export function serveAppProtocol(protocol: ProtocolLike, rendererDir: string): void {
  protocol.handle(APP_SCHEME, async (request) => {
    const url = new URL(request.url);
    if (url.host !== 'cairn') return new Response('not found', { status: 404 });
    const asset = await loadRendererAsset(rendererDir, url.pathname);
    if (asset === null) return new Response('the renderer is not built', { status: 503 });
    return new Response(new Uint8Array(asset.body), {
      headers: {
        'content-type': asset.contentType,
        'content-security-policy': contentSecurityPolicy([], asset.styleNonce),
      },
    });
  });
}
