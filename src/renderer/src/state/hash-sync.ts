/**
 * Keeps the ui-store's place and the URL's hash in step: the hash opens the place at start,
 * every change of place is a history entry (so back and forward work), and a hash change
 * (back, forward, an edited address) moves the store. Also drops the access token from the
 * address bar once the page has loaded, so a copied link never carries it (the cookie set
 * with the page authenticates this browser).
 */
import { formatHashRoute, parseHashRoute } from './hash-route';
import { rememberPlace } from './remembered-place';
import { routeOf, useUiStore } from './ui-store';

export function startHashSync(): () => void {
  dropTokenFromAddress();
  const startedHash = window.location.hash;
  useUiStore.getState().goTo(parseHashRoute(startedHash));
  replaceHash(formatHashRoute(routeOf(useUiStore.getState())));

  const unsubscribe = useUiStore.subscribe((state) => {
    const hash = formatHashRoute(routeOf(state));
    if (hash === window.location.hash) return;
    if (state.historyStep === 'replace') window.history.replaceState(null, '', hash);
    else window.history.pushState(null, '', hash);
  });
  const onHashChange = () => {
    const route = parseHashRoute(window.location.hash);
    if (formatHashRoute(route) !== formatHashRoute(routeOf(useUiStore.getState())))
      useUiStore.getState().goTo(route);
  };
  window.addEventListener('popstate', onHashChange);
  window.addEventListener('hashchange', onHashChange);
  const stopRemembering = rememberPlace(startedHash);
  return () => {
    stopRemembering();
    unsubscribe();
    window.removeEventListener('popstate', onHashChange);
    window.removeEventListener('hashchange', onHashChange);
  };
}

function replaceHash(hash: string): void {
  if (hash !== window.location.hash) window.history.replaceState(null, '', hash);
}

function dropTokenFromAddress(): void {
  const url = new URL(window.location.href);
  if (!url.searchParams.has('token')) return;
  url.searchParams.delete('token');
  window.history.replaceState(null, '', url.toString());
}
