/**
 * Opening a link: the store it names is looked up among the saved connections (by bucket,
 * root and endpoint host, or by directory) before any view reads anything. One that matches
 * opens; when none does, the user is asked - add the store as a connection, or open the link
 * with one of theirs - and nothing is read from another store meanwhile. Also names the
 * current connection the portable way once the saved list is known, so the address bar's link
 * works in a colleague's Cairn too.
 */
import { useEffect, useState } from 'react';
import type { Connection } from '../../../shared/contract/connections';
import { useApiQuery } from '../api/hooks';
import { ErrorPanel } from '../components/ErrorPanel';
import { Pending } from '../components/Pending';
import {
  connectionsOfLink,
  describeLink,
  linkOfConnection,
  type ConnectionLink,
} from '../state/connection-link';
import { useUiStore } from '../state/ui-store';
import { AddConnectionDialog, type ConnectionDraft } from '../views/AddConnectionDialog';

/** Names the connection shown as links do, once the saved list is read. */
export function useConnectionNaming(): void {
  const connections = useApiQuery('connections.list', {});
  const connectionId = useUiStore((state) => state.connectionId);
  const resolved = useUiStore((state) => state.connectionResolved);
  const nameConnection = useUiStore((state) => state.nameConnection);
  useEffect(() => {
    const current = connections.data?.find((connection) => connection.id === connectionId);
    if (resolved && current) nameConnection(linkOfConnection(current));
  }, [connections.data, connectionId, resolved, nameConnection]);
}

/** Shown instead of the view while a link's connection is being found. */
export function ConnectionLinkGate() {
  const connections = useApiQuery('connections.list', {});
  const link = useUiStore((state) => state.connection);
  const resolveConnection = useUiStore((state) => state.resolveConnection);
  const matches = connections.data ? connectionsOfLink(link, connections.data) : [];
  const match = matches[0];
  useEffect(() => {
    if (match) resolveConnection(match.id, linkOfConnection(match));
  }, [match, resolveConnection]);

  if (connections.error)
    return <ErrorPanel error={connections.error} onRetry={() => void connections.refetch()} />;
  if (!connections.data || match) return <Pending what="Finding the link's connection" />;
  return <NoMatchingConnection link={link} connections={connections.data} />;
}

function NoMatchingConnection({
  link,
  connections,
}: {
  link: ConnectionLink;
  connections: readonly Connection[];
}) {
  const resolveConnection = useUiStore((state) => state.resolveConnection);
  const [chosen, setChosen] = useState(connections[0]?.id ?? '');
  const draft = draftOfLink(link);
  const openWith = () => {
    const connection = connections.find((candidate) => candidate.id === chosen);
    if (connection) resolveConnection(connection.id, linkOfConnection(connection));
  };
  return (
    <section aria-labelledby="link-connection-title" className="view">
      <header className="view-header">
        <h1 id="link-connection-title">Open a link</h1>
      </header>
      <p role="alert" className="link-prompt">
        This link names {describeLink(link)}. None of your saved connections opens it, so nothing
        has been read.
      </p>
      {draft && (
        <p>
          <AddConnectionDialog initial={draft} triggerLabel="Add this connection" />{' '}
          <span className="muted small">The link opens once the connection is saved.</span>
        </p>
      )}
      <form
        className="inline"
        aria-label="Open the link with a saved connection"
        onSubmit={(event) => {
          event.preventDefault();
          openWith();
        }}
      >
        <label className="inline">
          Or open it with{' '}
          <select
            aria-label="Saved connection"
            value={chosen}
            onChange={(event) => setChosen(event.target.value)}
          >
            {connections.map((connection) => (
              <option key={connection.id} value={connection.id}>
                {connection.name}
              </option>
            ))}
          </select>
        </label>{' '}
        <button type="submit">Open with this connection</button>
      </form>
    </section>
  );
}

/** The new connection's form, filled in with what the link says of its store. */
function draftOfLink(link: ConnectionLink): ConnectionDraft | null {
  switch (link.kind) {
    case 'local':
      return { kind: 'local', path: link.path, name: link.path.split('/').filter(Boolean).pop() };
    case 's3':
      return {
        kind: 's3',
        name: link.bucket,
        bucket: link.bucket,
        root: link.root,
        endpoint: link.endpoint ?? undefined,
      };
    default:
      return null;
  }
}
