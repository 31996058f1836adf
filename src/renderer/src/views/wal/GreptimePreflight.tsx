/**
 * Batches' Preflight of a GreptimeDB prefix: what GreptimeDB's open would do, one line per
 * region - opens, opens with holes (which, and where `fail` would stop), or the entry that
 * stops the region's open with the decoder's reason - as `cairn wal preflight` prints it.
 * Reads only; runs when asked (it reads every segment of the prefix).
 */
import { useApiMutation } from '../../api/hooks';
import { ErrorPanel } from '../../components/ErrorPanel';
import { PanelHeading } from '../../components/PrefixName';

export function GreptimePreflight({
  connectionId,
  prefix,
}: {
  connectionId: string;
  prefix: string;
}) {
  const preflight = useApiMutation('wal.preflight');
  const report = preflight.data;
  return (
    <section aria-label="Preflight" className="wal-panel">
      <PanelHeading what="Preflight" prefix={prefix} />
      <button
        type="button"
        onClick={() => preflight.mutate({ connectionId, prefix })}
        disabled={preflight.isPending}
      >
        {preflight.isPending ? 'Preflight running…' : 'Preflight'}
      </button>
      <span className="muted small">
        {' '}
        GreptimeDB&apos;s open, region by region: recovery, each region&apos;s read, each entry
        decoded.
      </span>
      {preflight.error && <ErrorPanel error={preflight.error} />}
      {report && (
        <div role="status" aria-label="Preflight verdict">
          <p className={report.allOpen ? 'muted' : 'wal-warn'}>
            {report.failure !== null
              ? `GreptimeDB does not open this prefix: ${report.failure.code}`
              : report.allOpen
                ? `Every region opens (${report.regions.length}).`
                : 'Not every region opens cleanly:'}
          </p>
          <ul aria-label="Region verdicts">
            {report.regions.map((region) => (
              <li
                key={String(region.regionId)}
                className={`mono small ${region.verdict === 'opens' ? '' : 'wal-warn'}`}
              >
                {region.line}
              </li>
            ))}
          </ul>
        </div>
      )}
    </section>
  );
}
