/**
 * What of the Search view a link carries, beside the prefix: its filters and scope as typed
 * (the CLI's flags by name: `where` repeated, `since`, `until`, `regions`, `ids`, `text`,
 * `limit`, `order`) and whether it runs - a link to a running search starts it when opened, so
 * Copy link reopens and reruns the whole search. Pure parse / format; the view checks the
 * texts (shared/search/search-request.ts, as the CLI does).
 */

/** Hits a search keeps on the page unless the link asks otherwise (the export holds them). */
export const DEFAULT_SEARCH_LIMIT = 10_000;

export interface SearchPlace {
  /** Conditions, one per line as typed. */
  readonly where: readonly string[];
  readonly since: string;
  readonly until: string;
  readonly regions: string;
  readonly ids: string;
  readonly text: string;
  readonly limit: number;
  readonly order: 'ids' | 'newest';
  readonly run: boolean;
}

export const NO_SEARCH: SearchPlace = {
  where: [],
  since: '',
  until: '',
  regions: 'all',
  ids: '',
  text: '',
  limit: DEFAULT_SEARCH_LIMIT,
  order: 'ids',
  run: false,
};

export function readSearchPlace(params: URLSearchParams): SearchPlace {
  const limit = Number(params.get('limit') ?? 'none');
  return {
    where: params.getAll('where').filter((condition) => condition !== ''),
    since: params.get('since') ?? '',
    until: params.get('until') ?? '',
    regions: params.get('regions') || NO_SEARCH.regions,
    ids: params.get('ids') ?? '',
    text: params.get('text') ?? '',
    limit: Number.isSafeInteger(limit) && limit > 0 ? limit : DEFAULT_SEARCH_LIMIT,
    order: params.get('order') === 'newest' ? 'newest' : 'ids',
    run: params.get('run') === '1',
  };
}

/** Writes what differs from NO_SEARCH. */
export function writeSearchPlace(place: SearchPlace, params: URLSearchParams): void {
  for (const condition of place.where) params.append('where', condition);
  for (const key of ['since', 'until', 'ids', 'text'] as const)
    if (place[key] !== '') params.set(key, place[key]);
  if (place.regions !== NO_SEARCH.regions) params.set('regions', place.regions);
  if (place.limit !== DEFAULT_SEARCH_LIMIT) params.set('limit', String(place.limit));
  if (place.order !== NO_SEARCH.order) params.set('order', place.order);
  if (place.run) params.set('run', '1');
}
