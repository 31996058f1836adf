/**
 * UI-only state: the place shown (view, connection and what is selected in it, mirrored in
 * the URL's hash by hash-sync) and the refresh settings. Never server data, which TanStack
 * Query owns.
 */
import { create } from 'zustand';
import { HOME, type Route } from './hash-route';
import type { ViewId } from './views';

export { VIEWS, type ViewId } from './views';

/** How often views re-read the store while the window is visible; 0 pauses. */
export const REFRESH_CHOICES_MS = [0, 2_000, 5_000, 15_000, 60_000] as const;
export const DEFAULT_REFRESH_MS = 5_000;

interface UiState extends Route {
  /** Shows a view, with a selection in it (one history step). */
  showView: (view: ViewId, selection?: Partial<Omit<Route, 'view' | 'connectionId'>>) => void;
  selectConnection: (id: string) => void;
  selectWalPrefix: (prefix: string | null) => void;
  /** Changes the selection within the current view (one history step). */
  select: (selection: Partial<Omit<Route, 'view' | 'connectionId'>>) => void;
  /**
   * Fills in what the place left open (the prefix shown when none was named): the URL then
   * names it without a new history step, so back never returns to the unnamed place.
   */
  settle: (selection: Partial<Omit<Route, 'view' | 'connectionId'>>) => void;
  /** Replaces the whole place (a hash change: back, forward, a pasted link). */
  goTo: (route: Route) => void;
  /** How the last change of place enters the history. */
  historyStep: 'push' | 'replace';
  refreshMs: number;
  setRefreshMs: (ms: number) => void;
}

/** What a connection switch clears: selections belong to the connection they were made on. */
const NO_SELECTION = {
  walPrefix: null,
  folder: '',
  objectKey: null,
  region: null,
  partition: null,
  namespace: null,
} as const;

export const useUiStore = create<UiState>((set) => ({
  ...HOME,
  showView: (view, selection = {}) => set({ ...selection, view, historyStep: 'push' }),
  selectConnection: (connectionId) =>
    set((state) =>
      state.connectionId === connectionId
        ? {}
        : { connectionId, ...NO_SELECTION, historyStep: 'push' },
    ),
  selectWalPrefix: (walPrefix) =>
    set((state) =>
      state.walPrefix === walPrefix ? {} : { walPrefix, region: null, historyStep: 'push' },
    ),
  select: (selection) => set({ ...selection, historyStep: 'push' }),
  settle: (selection) => set({ ...selection, historyStep: 'replace' }),
  goTo: (route) => set({ ...route, historyStep: 'replace' }),
  historyStep: 'push',
  refreshMs: DEFAULT_REFRESH_MS,
  setRefreshMs: (refreshMs) => set({ refreshMs }),
}));

/** The route part of the state. */
export function routeOf(state: Route): Route {
  return {
    view: state.view,
    connectionId: state.connectionId,
    walPrefix: state.walPrefix,
    folder: state.folder,
    objectKey: state.objectKey,
    region: state.region,
    partition: state.partition,
    namespace: state.namespace,
  };
}
