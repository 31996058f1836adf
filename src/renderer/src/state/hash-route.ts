/**
 * The place the console shows, as a hash route: `#/<view>?connection=..&prefix=..&region=..`.
 * A copied link opens the same view and selection in a new window; back and forward walk the
 * places visited. Pure parse / format (the ui-store syncs it with `location`). The access
 * token never enters the hash: browser mode keeps it in the query and a cookie, and nothing
 * here reads or writes either.
 */
import { isViewId, type ViewId } from './views';

export interface Route {
  readonly view: ViewId;
  readonly connectionId: string;
  /** The WAL prefix of the WAL views. */
  readonly walPrefix: string | null;
  /** The bucket browser's folder ('' is the root) and selected object key. */
  readonly folder: string;
  readonly objectKey: string | null;
  /** A region of the WAL prefix, as `table:region`. */
  readonly region: string | null;
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

export const HOME: Route = {
  view: 'connections',
  connectionId: 'embedded',
  walPrefix: null,
  folder: '',
  objectKey: null,
  region: null,
  partition: null,
  namespace: null,
};

/** The route a hash names; unknown or missing parts fall back to HOME's. */
export function parseHashRoute(hash: string): Route {
  const body = hash.startsWith('#') ? hash.slice(1) : hash;
  const [path = '', query = ''] = splitOnce(body, '?');
  const view = path.replace(/^\//, '');
  const params = new URLSearchParams(query);
  const topicId = params.get('topic-id');
  const topic = params.get('topic');
  const partition = Number(params.get('partition') ?? 'none');
  return {
    view: isViewId(view) ? view : HOME.view,
    connectionId: params.get('connection') || HOME.connectionId,
    walPrefix: params.get('prefix') || null,
    folder: params.get('folder') ?? '',
    objectKey: params.get('object') || null,
    region: params.get('region') || null,
    partition:
      topicId && Number.isSafeInteger(partition) && partition >= 0
        ? { topicId, partition, ...(topic ? { topic } : {}) }
        : null,
    namespace: params.get('namespace') || null,
  };
}

/** The hash of a route (with its `#`); parts equal to HOME's are left out. */
export function formatHashRoute(route: Route): string {
  const params = new URLSearchParams();
  if (route.connectionId !== HOME.connectionId) params.set('connection', route.connectionId);
  if (route.walPrefix !== null) params.set('prefix', route.walPrefix);
  if (route.folder !== '') params.set('folder', route.folder);
  if (route.objectKey !== null) params.set('object', route.objectKey);
  if (route.region !== null) params.set('region', route.region);
  if (route.partition !== null) {
    params.set('topic-id', route.partition.topicId);
    params.set('partition', String(route.partition.partition));
    if (route.partition.topic) params.set('topic', route.partition.topic);
  }
  if (route.namespace !== null) params.set('namespace', route.namespace);
  const query = params.toString();
  return `#/${route.view}${query === '' ? '' : `?${query}`}`;
}

function splitOnce(text: string, separator: string): [string, string] {
  const at = text.indexOf(separator);
  return at < 0 ? [text, ''] : [text.slice(0, at), text.slice(at + 1)];
}
