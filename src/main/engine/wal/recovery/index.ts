/**
 * Recovery of a WAL prefix: listing (`listing`), one tail read per object (`tail-read`), the
 * pure chain judgement (`chain-selection`), the start-object placement (`start-sequence`) and
 * the orchestration with its single re-read (`recover`). Import recovery from here.
 */
export { listObjectsFrom, listObjectPages, compareSeq, type ListedObject } from './listing';
export {
  readObjectIndex,
  readObjectIndexes,
  tailOutcomeOfWhole,
  newTailScanMemo,
  type ScannedObject,
  type TailOutcome,
  type TailScan,
  type TailScanMemo,
} from './tail-read';
export {
  newestFirst,
  scanStep,
  watchedPages,
  type ScanOptions,
  type ScanWatch,
} from './scan-watch';
export {
  ScanMemo,
  FULL_LISTING_EVERY,
  type RememberedRead,
  type ScanMemoOptions,
} from './scan-memo';
export {
  listObjectsInRanges,
  listObjectPagesInRanges,
  LISTING_CONCURRENCY,
  type RangeListingOptions,
} from './parallel-listing';
export { selectChain, type ChainRules, type ChainSelection } from './chain-selection';
export { startSequenceFor, START_GAP, type StartInputs } from './start-sequence';
export {
  scanPrefix,
  recoverFromScan,
  provisionalRecovery,
  recoveredOf,
  highestListedSeq,
  type PrefixScan,
  type RecoveryInput,
  type Recovery,
} from './recover';
