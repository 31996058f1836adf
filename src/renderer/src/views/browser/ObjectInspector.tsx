/**
 * One object: its metadata, what a scrub or a replay found wrong with a WAL object, its parts,
 * its payload, and a raw download read in ranges.
 */
import { useState } from 'react';
import { api } from '../../api/client';
import { useApiQuery } from '../../api/hooks';
import { downloadBlob } from '../../components/download';
import { ErrorPanel } from '../../components/ErrorPanel';
import { formatBytes, formatCount } from '../format';
import { ObjectDamageNotice } from './ObjectDamageNotice';
import { PayloadViewer } from './PayloadViewer';
import { isWalObjectKey, WalObjectParts } from './WalObjectParts';

const DOWNLOAD_CHUNK = 1024 * 1024;

export function ObjectInspector({
  connectionId,
  objectKey,
  onClose,
}: {
  connectionId: string;
  objectKey: string;
  onClose: () => void;
}) {
  const object = useApiQuery('objects.get', {
    connectionId,
    key: objectKey,
    range: { start: 0, end: 256 * 1024 - 1 },
  });
  const [downloading, setDownloading] = useState(false);

  const download = async () => {
    if (!object.data) return;
    setDownloading(true);
    try {
      const parts: BlobPart[] = [];
      for (let start = 0; start < object.data.size; start += DOWNLOAD_CHUNK) {
        const part = await api.call('objects.get', {
          connectionId,
          key: objectKey,
          range: { start, end: start + DOWNLOAD_CHUNK - 1 },
        });
        parts.push(new Uint8Array(part.bytes));
      }
      downloadBlob(objectKey.split('/').pop() ?? 'object', new Blob(parts));
    } finally {
      setDownloading(false);
    }
  };

  return (
    <aside className="inspector" aria-label="Object inspector">
      <header className="view-header">
        <h2 className="mono small">{objectKey}</h2>
        <button type="button" onClick={onClose} aria-label="Close inspector">
          ×
        </button>
      </header>
      {object.error && <ErrorPanel error={object.error} onRetry={() => void object.refetch()} />}
      {object.data && (
        <>
          <dl className="facts">
            <dt>Size</dt>
            <dd>
              {formatBytes(object.data.size)} ({formatCount(object.data.size)} bytes)
            </dd>
            <dt>ETag</dt>
            <dd className="mono">{object.data.etag}</dd>
          </dl>
          <button type="button" onClick={() => void download()} disabled={downloading}>
            {downloading ? 'Downloading…' : 'Download raw'}
          </button>
          {isWalObjectKey(objectKey) && (
            <>
              <ObjectDamageNotice connectionId={connectionId} objectKey={objectKey} />
              <WalObjectParts key={objectKey} connectionId={connectionId} objectKey={objectKey} />
            </>
          )}
          <PayloadViewer bytes={object.data.bytes} totalSize={object.data.size} />
        </>
      )}
    </aside>
  );
}
