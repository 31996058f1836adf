/**
 * The Batches view of a GreptimeDB prefix in the merged layout (34-byte header): GreptimeDB's
 * open verdict first - the object and rule that would stop its datanode, or that it opens -
 * then `two writers` when an instance came back, the log's facts and the writer runs (a restart
 * is a new run), dated by the objects' listing dates. Read-only: nothing here writes.
 */
import type { GreptimeInspectView, InspectView } from '../../../../shared/contract/wal';
import { formatBytes, formatCount } from '../format';
import { FailureNotice } from './OpenFailure';
import { PanelHeading } from '../../components/PrefixName';

type MergedView = NonNullable<GreptimeInspectView['merged']>;

function dateText(ms: number | null): string {
  return ms === null ? '-' : new Date(ms).toISOString().replace('T', ' ').slice(0, 19);
}

function Verdict({ report, merged }: { report: InspectView; merged: MergedView }) {
  const refusal = merged.refusals[0];
  if (refusal === undefined)
    return (
      <p className="muted small" aria-label="Open verdict">
        GreptimeDB opens this prefix: every listed object is the log, next sequence{' '}
        {merged.nextSeq === null ? 'none' : String(merged.nextSeq)}.
      </p>
    );
  return (
    <div role="alert" className="error-panel" aria-label="GreptimeDB would refuse to open">
      <div className="error-code">GreptimeDB would refuse to open: {refusal.rule}</div>
      <div className="error-message">
        {refusal.key}: {refusal.detail}
      </div>
      {merged.refusals.length > 1 && (
        <div className="error-message small">
          {merged.refusals.length - 1} more rules broken; {report.chainObjects} objects listed.
        </div>
      )}
    </div>
  );
}

export function GreptimeMergedLog({
  report,
  merged,
  prefix,
}: {
  report: InspectView;
  merged: MergedView;
  prefix: string;
}) {
  return (
    <section aria-label="Writer runs" className="wal-panel">
      <PanelHeading what="Writer runs" prefix={prefix} />
      <Verdict report={report} merged={merged} />
      {report.failure && report.failure.code !== 'OpenRefused' && (
        <FailureNotice failure={report.failure} />
      )}
      {merged.twoWriters !== null && (
        <p role="alert" className="wal-warn" aria-label="Two writers">
          {merged.twoWriters}
        </p>
      )}
      <dl className="facts">
        <dt>Layout</dt>
        <dd>merged (34-byte header, writer instance)</dd>
        <dt>Tip</dt>
        <dd>{report.tip ? `seq ${String(report.tip.seq)}` : 'none'}</dd>
        <dt>Log</dt>
        <dd>
          {formatCount(report.chainObjects)} objects · {formatBytes(report.chainBytes)} ·{' '}
          {report.chainGaps} gaps
        </dd>
        <dt>Next sequence</dt>
        <dd>{merged.nextSeq === null ? 'none left' : String(merged.nextSeq)}</dd>
      </dl>
      <table className="table" aria-label="Writer instance runs">
        <thead>
          <tr>
            <th>Writer instance</th>
            <th>Sequences</th>
            <th>Objects</th>
            <th>From</th>
            <th>To</th>
          </tr>
        </thead>
        <tbody>
          {merged.runs.map((run) => (
            <tr key={String(run.firstSeq)}>
              <td className="mono">{run.writerInstance}</td>
              <td className="mono">
                {String(run.firstSeq)}–{String(run.lastSeq)}
              </td>
              <td>{run.objects}</td>
              <td className="mono small">{dateText(run.firstAtMs)}</td>
              <td className="mono small">{dateText(run.lastAtMs)}</td>
            </tr>
          ))}
        </tbody>
      </table>
      {merged.runCount > merged.runs.length && (
        <p className="muted small">
          The newest {merged.runs.length} of {formatCount(merged.runCount)} runs.
        </p>
      )}
    </section>
  );
}
