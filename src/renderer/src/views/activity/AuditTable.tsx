/**
 * The audit log's rows, newest first, only those in view rendered: when, connection (by
 * name), session, action, target, the call's parameters, result.
 */
import type { AuditEntry } from '../../../../shared/contract';
import { RelativeTime } from '../../components/RelativeTime';
import { useVirtualRows } from '../../components/use-virtual-rows';
import { OfPrefix } from '../../components/PrefixName';
import { connectionText, PARAMETERS_SHOWN, parametersText, targetPrefixOf } from './audit-text';
import { deletionText, shortCallId } from './deletion-text';

const ROW_HEIGHT = 34;

export function AuditTable({
  entries,
  namesById,
}: {
  entries: readonly AuditEntry[];
  namesById: ReadonlyMap<string, string>;
}) {
  const { scroller, items, before, after } = useVirtualRows(entries.length, ROW_HEIGHT);
  return (
    <div ref={scroller} className="activity-scroller">
      <table className="table" aria-label="Audit log" aria-rowcount={entries.length + 1}>
        <thead>
          <tr>
            <th scope="col">When</th>
            <th scope="col">Connection</th>
            <th scope="col">Session</th>
            <th scope="col">Action</th>
            <th scope="col">Target</th>
            <th scope="col">Parameters</th>
            <th scope="col">Result</th>
          </tr>
        </thead>
        <tbody>
          {before > 0 && <tr aria-hidden="true" style={{ height: before }} />}
          {items.map((item) => {
            const entry = entries[item.index];
            return entry === undefined ? null : (
              <AuditRow key={item.index} entry={entry} namesById={namesById} />
            );
          })}
          {after > 0 && <tr aria-hidden="true" style={{ height: after }} />}
        </tbody>
      </table>
    </div>
  );
}

function AuditRow({
  entry,
  namesById,
}: {
  entry: AuditEntry;
  namesById: ReadonlyMap<string, string>;
}) {
  const parameters = parametersText(entry.parameters);
  const targetPrefix = targetPrefixOf(entry);
  // A deletion reads in full (counts, keys, cause); a call shows its id's start to match them.
  const deletion = deletionText(entry);
  const call = entry.callId === undefined ? '' : `call ${shortCallId(entry.callId)} · `;
  return (
    <tr>
      <td className="small">
        <RelativeTime atMs={Date.parse(entry.at)} />
      </td>
      <td title={entry.connectionId ?? undefined}>{connectionText(entry, namesById)}</td>
      <td className="small">{entry.session ?? '—'}</td>
      <td className="mono">{entry.action}</td>
      <td className="mono">
        {targetPrefix === null ? (
          entry.target
        ) : (
          <OfPrefix what={entry.target} prefix={targetPrefix} />
        )}
      </td>
      {deletion !== null ? (
        <td className="small activity-deletion" aria-label="Deletion">
          {deletion}
        </td>
      ) : (
        <td className="mono small activity-parameters" title={parameters}>
          {call}
          {parameters.length > PARAMETERS_SHOWN
            ? `${parameters.slice(0, PARAMETERS_SHOWN)}…`
            : parameters}
        </td>
      )}
      <td>
        {entry.result === 'ok' ? (
          <span className="badge ok">ok</span>
        ) : entry.result === 'started' ? (
          <span className="badge" title="written before the action; its outcome was never recorded">
            started
          </span>
        ) : (
          <span className="badge warn" title={entry.error}>
            {entry.error ?? 'error'}
          </span>
        )}
      </td>
    </tr>
  );
}
