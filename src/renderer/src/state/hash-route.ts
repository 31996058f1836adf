/**
 * The place the console shows, as a hash route: `#/<view>?<connection>&<the view's own
 * parameters>`. A copied link opens the same view and selection in another window or
 * another install; back and forward walk the places visited. Each view's link carries only
 * its own parameters (a WAL view never carries the bucket browser's folder). Pure parse /
 * format (the ui-store syncs it with `location`); the connection's part is connection-link's.
 * The access token never enters the hash: browser mode keeps it in the query and a cookie,
 * and nothing here reads or writes either.
 */
import {
  EMBEDDED_LINK,
  readConnectionLink,
  writeConnectionLink,
  type ConnectionLink,
} from './connection-link';
import {
  linkedReplayPlace,
  NO_REPLAY,
  readReplayPlace,
  writeReplayPlace,
  type ReplayPlace,
} from './replay-place';
import { NO_SEARCH, readSearchPlace, writeSearchPlace, type SearchPlace } from './search-place';
import { isViewId, type ViewId } from './views';

export interface Route {
  readonly view: ViewId;
  /** The store, named as another install can find it. */
  readonly connection: ConnectionLink;
  /** The WAL prefix of the WAL views. */
  readonly walPrefix: string | null;
  /** The bucket browser's folder ('' is the root) and selected object key. */
  readonly folder: string;
  readonly objectKey: string | null;
  /** The bucket browser's scroll anchor: the key of the first row in view. */
  readonly anchor: string | null;
  /** The WAL object open in the Batches view's inspector, by key. */
  readonly inspected: string | null;
  /** A region of the WAL prefix, as `table:region`. */
  readonly region: string | null;
  /** The Replay view's inputs, filters and selection. */
  readonly replay: ReplayPlace;
  /** The Search view's filters and scope, and whether it runs. */
  readonly search: SearchPlace;
  /** A tiered-storage topic-partition. */
  readonly partition: {
    readonly topicId: string;
    readonly partition: number;
    /** The topic's name, when the user gave one for a partition that has no metadata yet. */
    readonly topic?: string;
  } | null;
  /** A namespace record, by name. */
  readonly namespace: string | null;
}

/** What a view's link carries besides the view and the connection. */
export type RoutePart =
  | 'walPrefix'
  | 'browser'
  | 'inspected'
  | 'region'
  | 'replay'
  | 'search'
  | 'partition'
  | 'namespace';

export const VIEW_PARTS: Readonly<Record<ViewId, readonly RoutePart[]>> = {
  overview: ['walPrefix'],
  browser: ['browser'],
  batches: ['walPrefix', 'inspected'],
  regions: ['walPrefix', 'region'],
  replay: ['walPrefix', 'region', 'replay'],
  search: ['walPrefix', 'search'],
  namespaces: ['namespace'],
  segments: ['partition'],
  manifest: ['walPrefix'],
  activity: [],
  connections: [],
};

export const HOME: Route = {
  view: 'connections',
  connection: EMBEDDED_LINK,
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
};

/** The selection a view's link carries (its parts' fields), without the view and connection. */
export function viewSelection(route: Route): Partial<Route> {
  const parts = new Set(VIEW_PARTS[route.view]);
  return {
    ...(parts.has('walPrefix') ? { walPrefix: route.walPrefix } : {}),
    ...(parts.has('browser')
      ? { folder: route.folder, objectKey: route.objectKey, anchor: route.anchor }
      : {}),
    ...(parts.has('inspected') ? { inspected: route.inspected } : {}),
    ...(parts.has('region') ? { region: route.region } : {}),
    ...(parts.has('replay') ? { replay: linkedReplayPlace(route.replay) } : {}),
    ...(parts.has('search') ? { search: route.search } : {}),
    ...(parts.has('partition') ? { partition: route.partition } : {}),
    ...(parts.has('namespace') ? { namespace: route.namespace } : {}),
  };
}

/** The route as its link carries it: other views' parts back to HOME's. */
export function linkedRoute(route: Route): Route {
  return { ...HOME, ...viewSelection(route), view: route.view, connection: route.connection };
}

/** The route a hash names; unknown or missing parts fall back to HOME's. */
export function parseHashRoute(hash: string): Route {
  const body = hash.startsWith('#') ? hash.slice(1) : hash;
  const [path = '', query = ''] = splitOnce(body, '?');
  const view = path.replace(/^\//, '');
  const params = new URLSearchParams(query);
  const topicId = params.get('topic-id');
  const topic = params.get('topic');
  const partition = Number(params.get('partition') ?? 'none');
  return linkedRoute({
    view: isViewId(view) ? view : HOME.view,
    connection: readConnectionLink(params),
    walPrefix: params.get('prefix') || null,
    folder: params.get('folder') ?? '',
    objectKey: params.get('object') || null,
    anchor: params.get('at') || null,
    inspected: params.get('inspect') || null,
    region: params.get('region') || null,
    replay: readReplayPlace(params),
    search: readSearchPlace(params),
    partition:
      topicId && Number.isSafeInteger(partition) && partition >= 0
        ? { topicId, partition, ...(topic ? { topic } : {}) }
        : null,
    namespace: params.get('namespace') || null,
  });
}

/** The hash of a route (with its `#`): the view's own parts, those equal to HOME's left out. */
export function formatHashRoute(route: Route): string {
  const place = linkedRoute(route);
  const params = new URLSearchParams();
  writeConnectionLink(place.connection, params);
  if (place.walPrefix !== null) params.set('prefix', place.walPrefix);
  if (place.folder !== '') params.set('folder', place.folder);
  if (place.objectKey !== null) params.set('object', place.objectKey);
  if (place.anchor !== null) params.set('at', place.anchor);
  if (place.inspected !== null) params.set('inspect', place.inspected);
  if (place.region !== null) params.set('region', place.region);
  writeReplayPlace(place.replay, params);
  writeSearchPlace(place.search, params);
  if (place.partition !== null) {
    params.set('topic-id', place.partition.topicId);
    params.set('partition', String(place.partition.partition));
    if (place.partition.topic) params.set('topic', place.partition.topic);
  }
  if (place.namespace !== null) params.set('namespace', place.namespace);
  const query = params.toString();
  return `#/${place.view}${query === '' ? '' : `?${query}`}`;
}

function splitOnce(text: string, separator: string): [string, string] {
  const at = text.indexOf(separator);
  return at < 0 ? [text, ''] : [text.slice(0, at), text.slice(at + 1)];
}
