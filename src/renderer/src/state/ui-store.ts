/**
 * UI-only state: the place shown (view, connection and what is selected in it, mirrored in
 * the URL's hash by hash-sync), the connection a link named while it is being found among the
 * saved ones, and the refresh settings. Never server data, which TanStack Query owns.
 */
import { create } from 'zustand';
import { EMBEDDED_LINK, sameLink, type ConnectionLink } from './connection-link';
import { HOME, viewSelection, type Route } from './hash-route';
import { NO_REPLAY, type ReplayPlace } from './replay-place';
import { NO_SEARCH, type SearchPlace } from './search-place';
import type { ViewId } from './views';

export { VIEWS, type ViewId } from './views';

/** How often views re-read the store while the window is visible; 0 pauses. */
export const REFRESH_CHOICES_MS = [0, 2_000, 5_000, 15_000, 60_000] as const;
export const DEFAULT_REFRESH_MS = 5_000;

/** The id the embedded store has in every install. */
const EMBEDDED_ID = 'embedded';

export type Selection = Partial<Omit<Route, 'view' | 'connection'>>;

interface UiState extends Route {
  /** The saved connection the views read; the place's `connection` names it for links. */
  connectionId: string;
  /**
   * False while the connection a link named is not yet found among the saved ones: the views
   * wait (App asks the user when none matches), so nothing is read from another store.
   */
  connectionResolved: boolean;
  /** Shows a view, with a selection in it (one history step). */
  showView: (view: ViewId, selection?: Selection) => void;
  /** Switches to a saved connection (one history step); its selections are dropped. */
  selectConnection: (id: string) => void;
  /** Names the current connection as links do, once the saved list says how (no new step). */
  nameConnection: (link: ConnectionLink) => void;
  /** The saved connection a link's `connection` turned out to be (no new step). */
  resolveConnection: (id: string, link: ConnectionLink) => void;
  selectWalPrefix: (prefix: string | null) => void;
  /** Changes the selection within the current view (one history step). */
  select: (selection: Selection) => void;
  /**
   * Fills in what the place left open (the prefix shown when none was named): the URL then
   * names it without a new history step, so back never returns to the unnamed place.
   */
  settle: (selection: Selection) => void;
  /** Changes the Replay view's place: a new history step, or (typing, selecting) in place. */
  setReplay: (patch: Partial<ReplayPlace>, step?: 'push' | 'replace') => void;
  /** Changes the Search view's place (a new history step when a search is started). */
  setSearch: (patch: Partial<SearchPlace>, step?: 'push' | 'replace') => void;
  /** Opens a place (a hash change: back, forward, a pasted link): the view's own parts. */
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
  anchor: null,
  inspected: null,
  region: null,
  replay: NO_REPLAY,
  search: NO_SEARCH,
  partition: null,
  namespace: null,
} as const;

/**
 * A WAL prefix selected: a new one's region and replay are another prefix's no longer. When
 * the user picked it (even the one a view had filled in), the bucket browser follows it to its
 * objects folder, unless it is inside that prefix already; a prefix a view only filled in
 * leaves the browser where it was.
 */
function withPrefix(state: UiState, walPrefix: string | null, picked: boolean): Partial<UiState> {
  const follow =
    picked && walPrefix !== null && !state.folder.startsWith(`${walPrefix}/`)
      ? { folder: `${walPrefix}/objects/`, objectKey: null, anchor: null }
      : {};
  if (walPrefix === state.walPrefix) return follow;
  return {
    walPrefix,
    region: null,
    replay: { ...state.replay, from: null, run: false, entry: null },
    search: { ...state.search, run: false },
    ...follow,
  };
}

/** A new region: the replay's start, run and selected entry were the other region's. */
function withRegion(state: UiState, region: string | null): Partial<UiState> {
  if (region === state.region) return {};
  return { region, replay: { ...state.replay, from: null, run: false, entry: null } };
}

/** A selection applied to the state, with what a new prefix or region resets. */
function applied(state: UiState, selection: Selection, picked: boolean): Partial<UiState> {
  const prefixed =
    selection.walPrefix === undefined ? {} : withPrefix(state, selection.walPrefix, picked);
  const regioned =
    selection.region === undefined ? {} : withRegion({ ...state, ...prefixed }, selection.region);
  return { ...prefixed, ...regioned, ...selection };
}

/** Where a link's connection leads before the saved list is read. */
function connectionOfLink(link: ConnectionLink): Partial<UiState> {
  return link.kind === 'embedded'
    ? { connection: link, connectionId: EMBEDDED_ID, connectionResolved: true }
    : { connection: link, connectionResolved: false };
}

export const useUiStore = create<UiState>((set) => ({
  ...HOME,
  connectionId: EMBEDDED_ID,
  connectionResolved: true,
  showView: (view, selection = {}) =>
    set((state) => ({ ...applied(state, selection, true), view, historyStep: 'push' })),
  selectConnection: (connectionId) =>
    set((state) =>
      state.connectionId === connectionId && state.connectionResolved
        ? {}
        : {
            ...NO_SELECTION,
            connectionId,
            connection:
              connectionId === EMBEDDED_ID ? EMBEDDED_LINK : { kind: 'saved', id: connectionId },
            connectionResolved: true,
            historyStep: 'push',
          },
    ),
  nameConnection: (connection) =>
    set((state) =>
      sameLink(state.connection, connection) ? {} : { connection, historyStep: 'replace' },
    ),
  resolveConnection: (connectionId, connection) =>
    set({ connectionId, connection, connectionResolved: true, historyStep: 'replace' }),
  selectWalPrefix: (walPrefix) =>
    set((state) => ({
      ...withPrefix(state, walPrefix, true),
      historyStep: walPrefix === state.walPrefix ? state.historyStep : 'push',
    })),
  select: (selection) =>
    set((state) => ({ ...applied(state, selection, true), historyStep: 'push' })),
  settle: (selection) =>
    set((state) => ({ ...applied(state, selection, false), historyStep: 'replace' })),
  setReplay: (patch, step = 'replace') =>
    set((state) => ({ replay: { ...state.replay, ...patch }, historyStep: step })),
  setSearch: (patch, step = 'replace') =>
    set((state) => ({ search: { ...state.search, ...patch }, historyStep: step })),
  goTo: (route) =>
    set((state) => {
      const selection = viewSelection(route);
      const sameConnection = sameLink(route.connection, state.connection);
      const base = sameConnection ? state : { ...state, ...NO_SELECTION };
      return {
        ...(sameConnection ? {} : { ...NO_SELECTION, ...connectionOfLink(route.connection) }),
        ...(selection.walPrefix !== undefined ? withPrefix(base, selection.walPrefix, true) : {}),
        ...selection,
        view: route.view,
        historyStep: 'replace',
      };
    }),
  historyStep: 'push',
  refreshMs: DEFAULT_REFRESH_MS,
  setRefreshMs: (refreshMs) => set({ refreshMs }),
}));

/** The route part of the state. */
export function routeOf(state: Route): Route {
  return {
    view: state.view,
    connection: state.connection,
    walPrefix: state.walPrefix,
    folder: state.folder,
    objectKey: state.objectKey,
    anchor: state.anchor,
    inspected: state.inspected,
    region: state.region,
    replay: state.replay,
    search: state.search,
    partition: state.partition,
    namespace: state.namespace,
  };
}
