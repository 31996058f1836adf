/**
 * What of the Replay view a link carries, beside the prefix and region: where it starts,
 * whether it runs (a link to a running replay starts it when opened), its pace and how many
 * entries it keeps, the filters of the mode shown (Entries: text and JSON path, order; Rows:
 * the column filters and the UTC time range) and the selected entry. Pure parse / format of
 * those parameters; ids stay as the user typed them (the view parses and checks them).
 */

export const KEEP_CHOICES = [100, 500, 1000, 5000] as const;
export const DEFAULT_KEEP = 1000;

export interface ReplayPlace {
  /** The entry id the replay starts from, as typed; null: the region's first entry. */
  readonly from: string | null;
  /** The view shows a replay of these inputs (running, paused or ended), not just the form. */
  readonly run: boolean;
  /** Entries per second at most; null: unpaced. */
  readonly pace: number | null;
  /** The newest entries kept on screen. */
  readonly keep: number;
  readonly mode: 'entries' | 'rows';
  /** Entries mode: the text and JSON-path filters and the order. */
  readonly text: string;
  readonly path: string;
  readonly newestFirst: boolean;
  /** Rows mode: per column key, its filter box's text; and the UTC time range. */
  readonly columns: Readonly<Record<string, string>>;
  readonly since: string;
  readonly until: string;
  /** The selected entry, as `seq:position`. */
  readonly entry: string | null;
}

export const NO_REPLAY: ReplayPlace = {
  from: null,
  run: false,
  pace: null,
  keep: DEFAULT_KEEP,
  mode: 'entries',
  text: '',
  path: '',
  newestFirst: true,
  columns: {},
  since: '',
  until: '',
  entry: null,
};

/** A Rows-mode column filter's parameter: `col.<column key>`. */
const COLUMN_PARAM = 'col.';

export function readReplayPlace(params: URLSearchParams): ReplayPlace {
  const mode = params.get('mode') === 'rows' ? 'rows' : 'entries';
  const keep = Number(params.get('keep'));
  const pace = Number(params.get('pace') ?? 'none');
  const columns: Record<string, string> = {};
  if (mode === 'rows')
    for (const [name, value] of params)
      if (name.startsWith(COLUMN_PARAM) && value !== '')
        columns[name.slice(COLUMN_PARAM.length)] = value;
  return {
    from: params.get('from') || null,
    run: params.get('run') === '1',
    pace: Number.isSafeInteger(pace) && pace > 0 ? pace : null,
    keep: (KEEP_CHOICES as readonly number[]).includes(keep) ? keep : DEFAULT_KEEP,
    mode,
    text: mode === 'entries' ? (params.get('text') ?? '') : '',
    path: mode === 'entries' ? (params.get('path') ?? '') : '',
    newestFirst: mode === 'rows' || params.get('order') !== 'oldest',
    columns,
    since: mode === 'rows' ? (params.get('since') ?? '') : '',
    until: mode === 'rows' ? (params.get('until') ?? '') : '',
    entry: params.get('entry') || null,
  };
}

/** Writes what differs from NO_REPLAY; only the filters of the mode shown. */
export function writeReplayPlace(place: ReplayPlace, params: URLSearchParams): void {
  if (place.from !== null) params.set('from', place.from);
  if (place.pace !== null) params.set('pace', String(place.pace));
  if (place.keep !== DEFAULT_KEEP) params.set('keep', String(place.keep));
  if (place.run) params.set('run', '1');
  if (place.mode === 'rows') {
    params.set('mode', 'rows');
    for (const [key, text] of Object.entries(place.columns))
      if (text !== '') params.set(`${COLUMN_PARAM}${key}`, text);
    if (place.since !== '') params.set('since', place.since);
    if (place.until !== '') params.set('until', place.until);
  } else {
    if (place.text !== '') params.set('text', place.text);
    if (place.path !== '') params.set('path', place.path);
    if (!place.newestFirst) params.set('order', 'oldest');
  }
  if (place.entry !== null) params.set('entry', place.entry);
}

/** The place as a link carries it: the filters of the mode not shown and empty boxes left out. */
export function linkedReplayPlace(place: ReplayPlace): ReplayPlace {
  if (place.mode === 'entries')
    return { ...place, columns: NO_REPLAY.columns, since: NO_REPLAY.since, until: NO_REPLAY.until };
  const columns = Object.fromEntries(
    Object.entries(place.columns).filter(([, text]) => text !== ''),
  );
  return {
    ...place,
    columns,
    text: NO_REPLAY.text,
    path: NO_REPLAY.path,
    newestFirst: NO_REPLAY.newestFirst,
  };
}
