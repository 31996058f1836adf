/**
 * Saved connections: add, test (reachability, permissions, conditional-write probe, and the
 * link's latency p50 / p99 and the rate a burst reached), remove, operator switch.
 */
import { useState } from 'react';
import type { Connection, ConnectionTest } from '../../../shared/contract';
import { useApiMutation, useApiQuery } from '../api/hooks';
import { ErrorPanel } from '../components/ErrorPanel';
import { useToasts } from '../components/Toasts';
import { useUiStore } from '../state/ui-store';
import { AddConnectionDialog } from './AddConnectionDialog';
import { formatMs } from './format';
import { DemoDataButton } from './connections/DemoDataButton';

export function ConnectionsView() {
  const connections = useApiQuery('connections.list', {});
  return (
    <section aria-labelledby="connections-title" className="view">
      <header className="view-header">
        <h1 id="connections-title">Connections</h1>
        <AddConnectionDialog />
      </header>
      {connections.error && (
        <ErrorPanel error={connections.error} onRetry={() => void connections.refetch()} />
      )}
      <table className="table" aria-label="Saved connections">
        <thead>
          <tr>
            <th scope="col">Name</th>
            <th scope="col">Kind</th>
            <th scope="col">Location</th>
            <th scope="col">Mode</th>
            <th scope="col">Check</th>
            <th scope="col">
              <span className="sr-only">Actions</span>
            </th>
          </tr>
        </thead>
        <tbody>
          {connections.data?.map((connection) => (
            <ConnectionRow key={connection.id} connection={connection} />
          ))}
        </tbody>
      </table>
    </section>
  );
}

function locationOf(connection: Connection): string {
  if (connection.kind === 'local') return connection.path;
  const where = connection.endpoint ?? 'AWS';
  return `s3://${connection.bucket}/${connection.root} at ${where}`;
}

function ConnectionRow({ connection }: { connection: Connection }) {
  const [result, setResult] = useState<ConnectionTest | null>(null);
  const test = useApiMutation('connections.test');
  const remove = useApiMutation('connections.remove', ['connections.list']);
  const setOperator = useApiMutation('connections.setOperator', ['connections.list']);
  const selectConnection = useUiStore((state) => state.selectConnection);
  const push = useToasts((state) => state.push);
  // Show the switch where the user put it while the main process applies it.
  const operator = setOperator.isPending
    ? (setOperator.variables?.operator ?? connection.operator)
    : connection.operator;
  const runTest = () => test.mutate({ id: connection.id }, { onSuccess: setResult });

  return (
    <tr>
      <th scope="row">
        <button type="button" className="link" onClick={() => selectConnection(connection.id)}>
          {connection.name}
        </button>
      </th>
      <td>{connection.kind === 'local' ? 'Local directory' : 'S3'}</td>
      <td className="mono">{locationOf(connection)}</td>
      <td>
        <label className="inline">
          <input
            type="checkbox"
            role="switch"
            aria-label={`Operator mode for ${connection.name}`}
            checked={operator}
            onChange={(event) =>
              setOperator.mutate(
                { id: connection.id, operator: event.target.checked },
                {
                  onError: (error) =>
                    push({
                      tone: 'error',
                      title: `${connection.name} stays read-only`,
                      description: `${error.code}: ${error.message}`,
                    }),
                },
              )
            }
          />
          {/* The switch names what it turns on; its state reads as on/off beside the box. */}
          Operator mode: {operator ? 'on' : 'off'}
        </label>
      </td>
      <td>
        <button
          type="button"
          onClick={runTest}
          disabled={test.isPending}
          aria-label={`Test ${connection.name}`}
        >
          {test.isPending ? 'Testing…' : 'Test'}
        </button>
        {result && (
          <span
            role="status"
            className={result.reachable && result.createIfAbsent ? 'badge ok' : 'badge warn'}
          >
            {result.reachable
              ? result.createIfAbsent
                ? 'Reachable, conditional writes enforced'
                : 'Reachable, read-only'
              : 'Unreachable'}
            <span className="sr-only"> — </span>
            <span className="small muted"> {result.detail}</span>
            {result.link && (
              <span className="small muted" aria-label="Link measured">
                {' '}
                · {result.link.requests} requests: p50 {formatMs(result.link.p50Ms)}, p99{' '}
                {formatMs(result.link.p99Ms)}, {Math.round(result.link.requestsPerSecond)}{' '}
                requests/s
              </span>
            )}
          </span>
        )}
      </td>
      <td>
        <DemoDataButton connection={connection} />{' '}
        {!connection.builtIn && (
          <button
            type="button"
            aria-label={`Remove ${connection.name}`}
            onClick={() =>
              remove.mutate(
                { id: connection.id },
                {
                  onSuccess: () =>
                    push({
                      tone: 'ok',
                      title: `Connection "${connection.name}" removed`,
                      description: 'Its data is untouched.',
                    }),
                  onError: (error) =>
                    push({
                      tone: 'error',
                      title: `Connection "${connection.name}" kept`,
                      description: `${error.code}: ${error.message}`,
                    }),
                },
              )
            }
          >
            Remove
          </button>
        )}
      </td>
    </tr>
  );
}
