/** The Prometheus text of the writer this app holds, saved as a file. */
import { useState } from 'react';
import type { ApiError } from '../../../../shared/api-error';
import { api } from '../../api/client';
import { downloadText } from '../../components/download';
import { ErrorPanel } from '../../components/ErrorPanel';

export function MetricsExport({ connectionId, prefix }: { connectionId: string; prefix: string }) {
  const [error, setError] = useState<ApiError | null>(null);
  const download = async () => {
    setError(null);
    try {
      const metrics = await api.call('wal.metrics', { connectionId, prefix });
      downloadText(
        `cairn-wal-metrics-${prefix.replace(/\//g, '-')}.prom`,
        metrics.prometheus,
        'text/plain; version=0.0.4',
      );
    } catch (caught) {
      setError(caught as ApiError);
    }
  };
  return (
    <div className="wal-writer-controls">
      <button type="button" onClick={() => void download()}>
        Download Prometheus metrics
      </button>
      {error && <ErrorPanel error={error} />}
    </div>
  );
}
