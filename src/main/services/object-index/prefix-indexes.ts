/**
 * The local index of each prefix the app opens, keyed by the store's name (a directory path,
 * `s3://bucket at endpoint`) and the prefix: the same keys the CLI uses on the same store, so
 * the console, browser mode and `cairn wal inspect` share what any of them read.
 */
import type { ObjectIo } from '../../engine/objectio/object-io';
import { objectKey } from '../../engine/wal/keys';
import type { WalFormat } from '../../engine/wal-read/format';
import type { ObjectIndexStore } from './index-store';
import { LocalPrefixIndex } from './local-prefix-index';

export function prefixIndexOf(
  store: ObjectIndexStore,
  io: ObjectIo,
  prefix: string,
  format: WalFormat,
): LocalPrefixIndex {
  return new LocalPrefixIndex(store, { store: io.endpoint, prefix, format }, (seq) =>
    objectKey(prefix, seq),
  );
}

/** `ReadModels`' index of each prefix, in `store`. */
export function prefixIndexesIn(
  store: ObjectIndexStore,
): (at: { io: ObjectIo; prefix: string; format: WalFormat }) => LocalPrefixIndex {
  return (at) => prefixIndexOf(store, at.io, at.prefix, at.format);
}
