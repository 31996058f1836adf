/**
 * The bucket browser: a folder at a time (ListObjectsV2 with a delimiter), pages fetched on
 * demand and rows virtualized, so a folder of 100,000 objects never lists whole or sends a
 * HEAD per row. Selecting an object opens the inspector. The folder, the object and the row at
 * the top are the place's (a link reopens them: the listing opens at that row); it opens at the
 * objects folder of the WAL prefix picked elsewhere; "Go to" jumps to a sequence or a key.
 */
import { useCallback, useState } from 'react';
import { ErrorPanel } from '../components/ErrorPanel';
import { formText } from '../components/form-text';
import { Pending } from '../components/Pending';
import { useUiStore } from '../state/ui-store';
import { GoToBox } from './browser/GoToBox';
import { ObjectInspector } from './browser/ObjectInspector';
import { ObjectList } from './browser/ObjectList';
import type { Row } from './browser/browser-rows';
import type { GoToTarget } from './browser/go-to-target';
import { LIVE_KEYS, useFolderListing } from './browser/use-folder-listing';
import { formatCount } from './format';

export function BrowserView() {
  const connectionId = useUiStore((state) => state.connectionId);
  const prefix = useUiStore((state) => state.folder);
  const selected = useUiStore((state) => state.objectKey);
  const anchor = useUiStore((state) => state.anchor);
  const select = useUiStore((state) => state.select);
  const settle = useUiStore((state) => state.settle);
  // Where the listing starts: the anchor the folder was opened with (a link, back / forward, a
  // "Go to"), kept while scrolling moves the anchor - a new folder takes its own.
  const [opened, setOpened] = useState({ folder: prefix, from: anchor });
  if (opened.folder !== prefix) setOpened({ folder: prefix, from: anchor });
  const from = opened.folder === prefix ? opened.from : anchor;
  const { listing, rows, fetchMore } = useFolderListing(connectionId, prefix, from);

  const setPrefix = useCallback(
    (folder: string) => select({ folder, objectKey: null, anchor: null }),
    [select],
  );
  const setSelected = useCallback((objectKey: string | null) => select({ objectKey }), [select]);
  const open = useCallback(
    (row: Row) => (row.kind === 'folder' ? setPrefix(row.key) : setSelected(row.key)),
    [setPrefix, setSelected],
  );
  const goTo = (target: GoToTarget) => {
    setOpened({ folder: target.folder, from: target.anchor });
    select({ folder: target.folder, objectKey: target.objectKey, anchor: target.anchor });
  };
  const listFromStart = () => {
    setOpened({ folder: prefix, from: null });
    settle({ anchor: null });
  };
  // The row at the top names the place; at a listing's very start there is nothing to name.
  const onTopRow = useCallback(
    (index: number) => {
      const key = index === 0 && from === null ? null : (rows[index]?.key ?? null);
      if (key !== useUiStore.getState().anchor) settle({ anchor: key });
    },
    [rows, from, settle],
  );
  const crumbs = prefix.split('/').filter(Boolean);
  return (
    <section aria-labelledby="browser-title" className="view browser">
      <header className="view-header">
        <h1 id="browser-title">Bucket browser</h1>
        <form
          className="inline"
          onSubmit={(event) => {
            event.preventDefault();
            setPrefix(formText(new FormData(event.currentTarget), 'prefix'));
          }}
        >
          <input
            name="prefix"
            aria-label="Prefix"
            placeholder="Search by prefix"
            defaultValue={prefix}
            key={prefix}
            className="mono"
          />
          <button type="submit">Go</button>
        </form>
        <GoToBox folder={prefix} onGo={goTo} />
      </header>
      <nav aria-label="Prefix path" className="crumbs">
        <button type="button" className="link" onClick={() => setPrefix('')}>
          (root)
        </button>
        {crumbs.map((part, index) => (
          <span key={index}>
            {' / '}
            <button
              type="button"
              className="link"
              onClick={() => setPrefix(crumbs.slice(0, index + 1).join('/') + '/')}
            >
              {part}
            </button>
          </span>
        ))}
      </nav>
      {from !== null && (
        <p className="small muted" role="status" aria-label="Listing start">
          Listed from <span className="mono">{from.slice(prefix.length)}</span> ·{' '}
          <button type="button" className="link" onClick={listFromStart}>
            List from the start
          </button>
        </p>
      )}
      {listing.error && <ErrorPanel error={listing.error} onRetry={() => void listing.refetch()} />}
      {listing.isPending && <Pending what="Listing objects" />}
      <div className="split">
        <ObjectList
          key={`${prefix}\n${from ?? ''}`}
          rows={rows}
          prefix={prefix}
          selected={selected}
          onOpen={open}
          onNearEnd={fetchMore}
          onTopRow={onTopRow}
          empty={!listing.isLoading && rows.length === 0}
        />
        {selected && (
          <ObjectInspector
            connectionId={connectionId}
            objectKey={selected}
            onClose={() => setSelected(null)}
          />
        )}
      </div>
      <p className="muted small" role="status">
        {rows.length} {listing.hasNextPage ? '+ (more pages load as you scroll)' : 'entries'}
        {rows.length > LIVE_KEYS &&
          ` · more than ${formatCount(LIVE_KEYS)} keys loaded: re-read on Refresh, not on the interval`}
      </p>
    </section>
  );
}
