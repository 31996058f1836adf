/**
 * Reads of one object by its key, in either format (the bucket browser's inspector and the
 * Batches inspector): its checks, and its parts with each segment decoded. The key must lie
 * under the connection's root.
 */
import type { DecodedObjectView } from '../../../shared/contract/wal';
import { verifyGtObject } from '../../engine/greptimedb/verify';
import { formatOfObject } from '../../engine/wal-read/format';
import { verifyObject, type ObjectVerdict } from '../../engine/wal/verify';
import type { ConnectionStorage } from './connection-storage';
import { describeObject, type SegmentPage } from './object-parts';
import { checkObjectKey } from './wal-locate';

export async function verifyObjectAt(
  connections: ConnectionStorage,
  connectionId: string,
  key: string,
): Promise<ObjectVerdict> {
  const { io, root } = await connections.io(connectionId);
  checkObjectKey(root, key);
  return (await formatOfObject(io, key)) === 'greptimedb-v1'
    ? verifyGtObject(io, key)
    : verifyObject(io, key);
}

export async function decodeObjectAt(
  connections: ConnectionStorage,
  connectionId: string,
  key: string,
  segments: SegmentPage,
): Promise<DecodedObjectView> {
  const { io, root } = await connections.io(connectionId);
  checkObjectKey(root, key);
  return describeObject(io, key, segments);
}
