/**
 * Garbage collection of a WAL prefix (control.md, Protocol point 5): the pure plan
 * (`plan`), the judgement of a chain without a writer's catalog (`judge`), listing and
 * ascending batch deletes (`deletes`), one pass and the dry run (`run`), and a writer's
 * collector (`writer-collector`). Import garbage collection from here.
 */
export {
  collectionBoundary,
  isWhollyObsolete,
  planDeletes,
  type CollectableObject,
  type CollectionPlan,
  type ListedWalObject,
} from './plan';
export { judgeChain, type JudgedChain } from './judge';
export { heldBackBy, type HeldBack, type HoldingRegion } from './held-back';
export { deleteAscending, listObjectsBelow, type DeleteOutcome } from './deletes';
export {
  boundaryOfJudged,
  collectAsMaintenance,
  dryRunFromRegister,
  previewCollection,
  runCollection,
  withBoundary,
  type EpochHolderCollection,
  type GcReport,
} from './run';
export { WriterCollector, type CollectingWriter } from './writer-collector';
