/**
 * The console remembers where it was, per data directory: every settled place (its hash
 * route) is saved in the main process (`ui.place.save`, a second after the last change), and a
 * start without a place of its own (a restart, `npm start`'s fresh URL) opens the saved one.
 * A URL that names a place (a pasted link, a reload) always wins over the saved one.
 */
import { api } from '../api/client';
import { formatHashRoute, parseHashRoute } from './hash-route';
import { routeOf, useUiStore } from './ui-store';

const SAVE_AFTER_MS = 1_000;

/** True when the address names no place: `#`, `#/` or nothing. */
export function namesNoPlace(hash: string): boolean {
  return hash === '' || hash === '#' || hash === '#/';
}

/**
 * Opens the saved place when the start named none (`startedHash`) and nothing has moved the
 * console since; then keeps saving. Returns the stop function.
 */
export function rememberPlace(startedHash: string): () => void {
  const startedAt = formatHashRoute(routeOf(useUiStore.getState()));
  let restored = !namesNoPlace(startedHash);
  if (!restored)
    void api.call('ui.place.get', {}).then(
      (place) => {
        const untouched = formatHashRoute(routeOf(useUiStore.getState())) === startedAt;
        if (place !== null && untouched) useUiStore.getState().goTo(parseHashRoute(place.hash));
        restored = true;
      },
      () => (restored = true), // Nothing kept, or an older main process: start at home.
    );
  let timer: ReturnType<typeof setTimeout> | undefined;
  let saved = startedAt;
  const unsubscribe = useUiStore.subscribe((state) => {
    const hash = formatHashRoute(routeOf(state));
    if (hash === saved || !state.connectionResolved) return;
    clearTimeout(timer);
    timer = setTimeout(() => {
      if (!restored) return;
      saved = hash;
      void api.call('ui.place.save', { hash }).catch(() => undefined);
    }, SAVE_AFTER_MS);
  });
  return () => {
    clearTimeout(timer);
    unsubscribe();
  };
}
