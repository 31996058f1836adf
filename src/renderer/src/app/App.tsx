/**
 * The app shell: title bar (connection, mode, link actions), navigation, the current view (or,
 * while a link's connection is being found, the prompt that finds it), status bar.
 */
import { useEffect, type ReactElement } from 'react';
import { useApiQuery, useLiveInvalidation } from '../api/hooks';
import { AuditBanner } from '../components/AuditBanner';
import { LinkStatus } from '../components/LinkStatus';
import { LiveStatus } from '../components/LiveStatus';
import { ShortcutsDialog } from '../components/ShortcutsDialog';
import { Toasts } from '../components/Toasts';
import { ViewErrorBoundary } from '../components/ViewErrorBoundary';
import { VIEWS, useUiStore, type ViewId } from '../state/ui-store';
import { ConnectionsView } from '../views/ConnectionsView';
import { ActivityView } from '../views/ActivityView';
import { BrowserView } from '../views/BrowserView';
import { NamespacesView } from '../views/NamespacesView';
import { SegmentsView } from '../views/SegmentsView';
import { OverviewView } from '../views/OverviewView';
import { BatchesView } from '../views/BatchesView';
import { RegionsView } from '../views/RegionsView';
import { ReplayView } from '../views/ReplayView';
import { SearchView } from '../views/SearchView';
import { ManifestView } from '../views/ManifestView';
import { api } from '../api/client';
import { ConnectionLinkGate, useConnectionNaming } from './ConnectionLinkGate';
import { CopyLinkButton, OpenLinkDialog } from './LinkButtons';

/** Every view of the navigation, by id: adding a view is one line here and one in ui-store. */
const VIEW_COMPONENTS: Record<ViewId, () => ReactElement> = {
  overview: OverviewView,
  browser: BrowserView,
  batches: BatchesView,
  regions: RegionsView,
  replay: ReplayView,
  search: SearchView,
  namespaces: NamespacesView,
  segments: SegmentsView,
  manifest: ManifestView,
  activity: ActivityView,
  connections: ConnectionsView,
};

function CurrentView({ view }: { view: ViewId }) {
  const View = VIEW_COMPONENTS[view];
  return (
    <ViewErrorBoundary key={view} view={view}>
      <View />
    </ViewErrorBoundary>
  );
}

function useViewShortcuts(): void {
  const showView = useUiStore((state) => state.showView);
  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      if (!(event.altKey || event.ctrlKey || event.metaKey)) return;
      const target = VIEWS.find((view) => view.shortcut === event.key);
      if (target) {
        event.preventDefault();
        showView(target.id);
      }
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [showView]);
}

export function App() {
  useLiveInvalidation();
  useViewShortcuts();
  useConnectionNaming();
  const { view, showView, connectionId, connectionResolved, selectConnection } = useUiStore();
  const info = useApiQuery('app.info', {});
  const connections = useApiQuery('connections.list', {});
  const current = connections.data?.find((connection) => connection.id === connectionId);

  return (
    <div className="shell">
      <header className="titlebar">
        <span className="brand">
          <img src="./icon.svg" alt="" width={22} height={22} /> Cairn
        </span>
        <label className="inline">
          <span className="sr-only">Connection</span>
          <select
            aria-label="Connection"
            value={connectionId}
            onChange={(event) => selectConnection(event.target.value)}
          >
            {connections.data?.map((connection) => (
              <option key={connection.id} value={connection.id}>
                {connection.name}
              </option>
            ))}
          </select>
        </label>
        <span
          role="status"
          aria-label="Access mode"
          className={current?.operator ? 'mode operator' : 'mode readonly'}
        >
          {current?.operator ? 'Operator' : 'Read-only'}
        </span>
        {current && <LinkStatus connectionId={current.id} />}
        <LiveStatus />
        <CopyLinkButton />
        <OpenLinkDialog />
        <ShortcutsDialog />
      </header>
      <nav aria-label="Views" className="sidebar">
        <ul>
          {VIEWS.map((item) => (
            <li key={item.id}>
              <button
                type="button"
                aria-current={item.id === view ? 'page' : undefined}
                onClick={() => showView(item.id)}
                title={`Ctrl+${item.shortcut}`}
              >
                {item.label}
              </button>
            </li>
          ))}
        </ul>
      </nav>
      <main className="content">
        <AuditBanner />
        {connectionResolved ? <CurrentView view={view} /> : <ConnectionLinkGate />}
      </main>
      <footer className="statusbar" aria-label="App information">
        {info.data ? (
          <>
            <span>
              Cairn {info.data.version} ·{' '}
              {info.data.mode === 'desktop' ? 'Desktop' : 'Browser mode'} ({api.transport})
            </span>
            <span className="mono" title="Data directory">
              {info.data.dataDir}
            </span>
          </>
        ) : (
          <span>{info.error ? `Not connected: ${info.error.message}` : 'Connecting…'}</span>
        )}
      </footer>
      <Toasts />
    </div>
  );
}
