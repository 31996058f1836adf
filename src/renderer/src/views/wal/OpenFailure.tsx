/**
 * Why a writer open of the prefix would fail (inspect's `failure`): the typed error, and on
 * the Manifest view also the verify report of the object it names and its raw download (read
 * in ranges, like the object inspector does).
 */
import { useState } from 'react';
import type { InspectFailureView } from '../../../../shared/contract/wal';
import { api } from '../../api/client';
import { useApiQuery } from '../../api/hooks';
import { downloadBlob } from '../../components/download';
import { ErrorPanel } from '../../components/ErrorPanel';
import { PrefixName } from '../../components/PrefixName';
import { formatCount } from '../format';

const DOWNLOAD_CHUNK = 1024 * 1024;

export function FailureNotice({ failure }: { failure: InspectFailureView }) {
  return (
    <div role="alert" className="error-panel" aria-label="Open would fail">
      <div className="error-code">{failure.code}</div>
      <div className="error-message">{failure.message}</div>
      {failure.key && (
        <dl className="error-details">
          <div>
            <dt>key</dt>
            <dd className="mono">{failure.key}</dd>
          </div>
        </dl>
      )}
    </div>
  );
}

export function OpenFailurePanel({
  connectionId,
  prefix,
  failure,
}: {
  connectionId: string;
  prefix: string;
  failure: InspectFailureView;
}) {
  return (
    <section aria-label="Open failure" className="wal-panel">
      <h2>
        <PrefixName prefix={prefix} /> does not open
      </h2>
      <FailureNotice failure={failure} />
      {failure.key && <NamedObject connectionId={connectionId} objectKey={failure.key} />}
    </section>
  );
}

function NamedObject({ connectionId, objectKey }: { connectionId: string; objectKey: string }) {
  const verdict = useApiQuery('wal.verifyObject', { connectionId, key: objectKey });
  const [downloading, setDownloading] = useState(false);
  const download = async () => {
    setDownloading(true);
    try {
      const first = await api.call('objects.get', {
        connectionId,
        key: objectKey,
        range: { start: 0, end: DOWNLOAD_CHUNK - 1 },
      });
      const parts: BlobPart[] = [new Uint8Array(first.bytes)];
      for (let start = DOWNLOAD_CHUNK; start < first.size; start += DOWNLOAD_CHUNK) {
        const part = await api.call('objects.get', {
          connectionId,
          key: objectKey,
          range: { start, end: start + DOWNLOAD_CHUNK - 1 },
        });
        parts.push(new Uint8Array(part.bytes));
      }
      downloadBlob(objectKey.split('/').pop() ?? 'object.wal', new Blob(parts));
    } finally {
      setDownloading(false);
    }
  };
  return (
    <div>
      <h3 className="small">Verify report of {objectKey}</h3>
      {verdict.error && <ErrorPanel error={verdict.error} onRetry={() => void verdict.refetch()} />}
      {verdict.data && (
        <dl className="facts" aria-label="Verify report">
          <dt>Verdict</dt>
          <dd>
            {verdict.data.ok
              ? 'ok'
              : verdict.data.gone
                ? 'gone (collected meanwhile)'
                : `damaged: ${verdict.data.check ?? '?'}`}
          </dd>
          <dt>Size</dt>
          <dd>{formatCount(verdict.data.size)} bytes</dd>
          {verdict.data.detail && (
            <>
              <dt>Detail</dt>
              <dd>{verdict.data.detail}</dd>
            </>
          )}
        </dl>
      )}
      <button type="button" onClick={() => void download()} disabled={downloading}>
        {downloading ? 'Downloading…' : 'Download raw object'}
      </button>
    </div>
  );
}
