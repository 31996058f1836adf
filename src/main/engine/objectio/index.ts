/** The objectio folder's public face: the ObjectIo interface, its errors, backends and probe. */
export * from './object-io';
export * from './errors';
export * from './link';
export { deleteKeys, checkedDeleteBatch } from './batch-delete';
export { resolveRange } from './byte-range';
export { readRanges, READ_CHUNK_BYTES } from './ranged-read';
export { compareKeys, listSortedPage } from './sorted-listing';
export { MemoryObjectIo } from './memory-object-io';
export { LocalObjectIo, LOCAL_TEMP_DIR, keyProblem } from './local-object-io';
export {
  S3ObjectIo,
  createBucketIfMissing,
  s3EndpointLabel,
  DEFAULT_S3_REGION,
  type S3ObjectIoConfig,
  type S3Credentials,
} from './s3-object-io';
export { storageErrorFromS3, type S3Operation, type S3ErrorContext } from './s3-errors';
export {
  FaultyObjectIo,
  type FaultKind,
  type FaultOp,
  type FaultRule,
  type FaultyObjectIoOptions,
} from './faulty-object-io';
export {
  probeCreateIfAbsent,
  assertWritable,
  CreateIfAbsentNotEnforcedError,
  ReadOnlyStoreError,
  PROBE_PREFIX,
  type ProbeResult,
} from './probe';
