/**
 * The one Content-Security-Policy of the renderer, in both shells: scripts only from the
 * app itself, no inline scripts or eval, no plugins, no framing, no remote connections but
 * the app's own API socket. Styles come from the app's files; the one exception is a
 * `<style>` element carrying this page's nonce: Radix dialogs lock the page's scroll with a
 * small style element they write at run time (react-remove-scroll), and a per-page nonce
 * admits exactly those elements, never a style attribute, never an injected tag.
 */
export function contentSecurityPolicy(
  connectSources: readonly string[] = [],
  styleNonce?: string,
): string {
  return [
    "default-src 'self'",
    "script-src 'self'",
    styleNonce === undefined ? "style-src 'self'" : `style-src 'self' 'nonce-${styleNonce}'`,
    "img-src 'self' data: blob:",
    "font-src 'self'",
    ["connect-src 'self'", ...connectSources].join(' '),
    "object-src 'none'",
    "base-uri 'none'",
    "form-action 'none'",
    "frame-ancestors 'none'",
  ].join('; ');
}
