/**
 * Hands the page's style nonce (written by the server into the `cairn-style-nonce` meta tag,
 * and named in the CSP's style-src) to the one library that writes `<style>` elements at run
 * time: Radix's scroll lock (react-remove-scroll through react-style-singleton), which reads
 * it from `get-nonce`, whose documented fallback is the `__webpack_nonce__` global. Without a
 * nonce (a page not served by Cairn) nothing is set and the CSP blocks those elements.
 */
const PLACEHOLDER = '__CAIRN_STYLE_NONCE__';

export function installStyleNonce(): void {
  const nonce = document
    .querySelector<HTMLMetaElement>('meta[name="cairn-style-nonce"]')
    ?.getAttribute('content');
  if (!nonce || nonce === PLACEHOLDER) return;
  (globalThis as { __webpack_nonce__?: string }).__webpack_nonce__ = nonce;
}
