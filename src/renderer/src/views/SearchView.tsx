/**
 * Search: every region of the selected prefix searched at once (read-only). GreptimeDB rows by
 * conditions and a UTC time range, Cairn payloads by text; within regions and an id range,
 * newest objects first or in id order, up to a limit. Hits stream into a virtualized table as
 * they are found, with the hits per region, the scan's progress (objects, bytes, rows, rate),
 * pause and cancel, the damaged segments skipped, and an export of the hits as NDJSON or CSV -
 * the bytes `cairn wal search` prints with the flags shown. The whole search is the place's, so
 * Copy link reopens it and runs it again.
 */
import { useEffect, useMemo, useState, type FormEvent } from 'react';
import { formatRegionId } from '../../../shared/id-notation';
import { hitsCsv, hitsNdjson, HitColumns } from '../../../shared/search/search-hits';
import { isSearchInputProblem, searchPartsOf } from '../../../shared/search/search-request';
import { ErrorPanel } from '../components/ErrorPanel';
import { downloadText } from '../components/download';
import { formText } from '../components/form-text';
import { useUiStore } from '../state/ui-store';
import type { SearchPlace } from '../state/search-place';
import { PrefixScopedView, type PrefixBodyProps } from './wal/PrefixScopedView';
import { SearchHitsTable } from './wal/search/SearchHitsTable';
import { SkippedHoles } from './wal/holes/SkippedHoles';
import { useHoleJumps } from './wal/holes/use-hole-jump';
import { progressText, searchCommand, stateText } from './wal/search/search-words';
import { isLiveSearch, useSearch } from './wal/search/use-search';
import './wal/wal.css';
import { PanelHeading } from '../components/PrefixName';
import { formatCount } from './format';

export function SearchView() {
  return <PrefixScopedView id="search" title="Search" Body={SearchOf} />;
}

/** The place the form's fields name. */
function placeOfForm(form: FormData, rows: boolean): Omit<SearchPlace, 'run'> {
  const limit = Number(formText(form, 'limit'));
  return {
    where: rows
      ? formText(form, 'where')
          .split('\n')
          .map((line) => line.trim())
          .filter((line) => line !== '')
      : [],
    since: rows ? formText(form, 'since') : '',
    until: rows ? formText(form, 'until') : '',
    regions: formText(form, 'regions') || 'all',
    ids: formText(form, 'ids'),
    text: rows ? '' : formText(form, 'text'),
    limit: Number.isSafeInteger(limit) && limit > 0 ? limit : Number.NaN,
    order: formText(form, 'order') === 'newest' ? 'newest' : 'ids',
  };
}

/** Why the place cannot be searched, as the CLI would say it; null when it can. */
function problemOf(place: Omit<SearchPlace, 'run'>): string | null {
  if (!Number.isSafeInteger(place.limit)) return 'Limit: a whole number of hits, at least 1';
  const parts = searchPartsOf(place);
  return isSearchInputProblem(parts) ? `${parts.flag}: ${parts.message}` : null;
}

/** One of the form's text boxes, named as the CLI's flag. */
function TextField({
  title,
  name,
  value,
  placeholder,
}: {
  title: string;
  name: string;
  value: string;
  placeholder: string;
}) {
  return (
    <label>
      {title}{' '}
      <input
        name={name}
        className="mono"
        defaultValue={value}
        placeholder={placeholder}
        autoComplete="off"
      />
    </label>
  );
}

function SearchOf({ connectionId, prefix, format }: PrefixBodyProps) {
  const place = useUiStore((state) => state.search);
  const setSearch = useUiStore((state) => state.setSearch);
  const search = useSearch();
  // A link's search that does not read says why at once, as a typed one would.
  const [problem, setProblem] = useState(() => (place.run ? problemOf(place) : null));
  const rows = format !== 'cairn-v1';

  const launch = (chosen: Omit<SearchPlace, 'run'> & { run?: boolean }): void => {
    const { where, since, until, regions, ids, text, limit, order } = chosen;
    const input = { where: [...where], since, until, regions, ids, text, limit, order };
    void search.start({ connectionId, prefix, ...input });
  };

  // A place that runs when opened (a link, coming back to the view) starts its search, once.
  useEffect(() => {
    if (place.run && problemOf(place) === null) launch(place);
    // eslint-disable-next-line react-hooks/exhaustive-deps -- on opening only, not on typing
  }, []);

  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const chosen = placeOfForm(new FormData(event.currentTarget), rows);
    const stopped = problemOf(chosen);
    setProblem(stopped);
    if (stopped !== null) return;
    setSearch({ ...chosen, run: true }, 'push');
    launch(chosen);
  };

  const { progress, hits, holes, damaged, version } = search;
  const [jump, jumpTo] = useHoleJumps();
  const kind = progress?.kind ?? (rows ? 'row' : 'entry');
  // Columns of the hits so far; made again only when a chunk arrived.
  const columns = useMemo(() => {
    const union = new HitColumns();
    for (const hit of hits) union.add(hit);
    return union.columns();
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [hits, version]);
  const live = isLiveSearch(progress);
  const fileName = `search-${prefix.replaceAll('/', '-')}`;
  return (
    <div className="wal-main">
      <form className="wal-replay-form" aria-label="Search the prefix" onSubmit={submit} noValidate>
        {rows ? (
          <>
            <label>
              Where (one condition per line: <code>key=v</code>, <code>!=</code>,{' '}
              <code>~regex</code>, <code>&lt;n</code>, <code>&gt;n</code>){' '}
              <textarea
                name="where"
                className="mono"
                rows={2}
                defaultValue={place.where.join('\n')}
                placeholder="host=web-6"
              />
            </label>
            <TextField
              title="From (UTC)"
              name="since"
              value={place.since}
              placeholder="2026-01-01T10:02:00Z"
            />
            <TextField title="To (UTC)" name="until" value={place.until} placeholder="exclusive" />
          </>
        ) : (
          <TextField title="Payload text" name="text" value={place.text} placeholder="any" />
        )}
        <TextField
          title="Regions"
          name="regions"
          value={place.regions}
          placeholder="all or 1024:7,1024:8"
        />
        <TextField title="Ids" name="ids" value={place.ids} placeholder="FROM..TO" />
        <label>
          Limit{' '}
          <input name="limit" inputMode="numeric" defaultValue={place.limit} autoComplete="off" />
        </label>
        <label>
          Order{' '}
          <select name="order" defaultValue={place.order}>
            <option value="ids">id order</option>
            <option value="newest">newest objects first</option>
          </select>
        </label>
        <button type="submit">Search</button>
        {progress?.state === 'running' && (
          <button type="button" onClick={() => void search.pause()}>
            Pause
          </button>
        )}
        {progress?.state === 'paused' && (
          <button type="button" onClick={() => void search.resume()}>
            Resume
          </button>
        )}
        {live && (
          <button type="button" onClick={() => void search.cancel()}>
            Cancel
          </button>
        )}
      </form>
      {problem !== null && (
        <p role="alert" className="form-problem">
          {problem}
        </p>
      )}
      {search.error !== null && <ErrorPanel error={search.error} />}
      {progress !== null && (
        <p className="small" role="status" aria-label="Search progress">
          <strong>{stateText(progress)}</strong> · {progressText(progress)}
        </p>
      )}
      {progress !== null && (
        <section aria-label="Hits per region" className="wal-panel">
          <PanelHeading what="Hits per region" prefix={prefix} />
          <table className="data-table">
            <thead>
              <tr>
                <th scope="col">Region</th>
                <th scope="col">Hits</th>
              </tr>
            </thead>
            <tbody>
              {progress.regions.map(({ region, hits: count }) => (
                <tr key={String(region)}>
                  <th scope="row" className="mono">
                    {formatRegionId(region)}
                  </th>
                  <td>{formatCount(count)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </section>
      )}
      {progress !== null && (
        <SkippedHoles count={progress.holes} holes={holes.map((met) => met.hole)} onJump={jumpTo} />
      )}
      {damaged.length > 0 && (
        <ul aria-label="Payloads without rows" className="wal-warn">
          {damaged.map((payload, at) => (
            <li key={`${payload.key}/${at}`}>
              {payload.what} at {payload.key}: {payload.reason}
            </li>
          ))}
        </ul>
      )}
      {progress !== null && (
        <div className="wal-replay-filters">
          <button
            type="button"
            disabled={live || hits.length === 0}
            onClick={() => downloadText(`${fileName}.ndjson`, hitsNdjson(hits))}
          >
            Export NDJSON
          </button>
          <button
            type="button"
            disabled={live || hits.length === 0}
            onClick={() => downloadText(`${fileName}.csv`, hitsCsv(kind, hits), 'text/csv')}
          >
            Export CSV
          </button>
          <span className="small muted">
            Same hits:{' '}
            <code className="mono" aria-label="Same search from the CLI">
              {searchCommand(prefix, place, 'ndjson')}
            </code>
          </span>
        </div>
      )}
      {progress !== null && (
        <SearchHitsTable kind={kind} hits={hits} holes={holes} jump={jump} columns={columns} />
      )}
    </div>
  );
}
