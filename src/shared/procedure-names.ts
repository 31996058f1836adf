/**
 * The procedure names alone, without their schemas, for the sandboxed preload (which must
 * stay tiny). `contract/index.ts` checks at compile time that this list is exactly the
 * contract's keys.
 */
export const PROCEDURE_NAMES = [
  'app.info',
  'connections.list',
  'connections.add',
  'connections.remove',
  'connections.test',
  'connections.setOperator',
  'objects.list',
  'objects.head',
  'objects.get',
  'audit.recent',
  'segments.partitions',
  'segments.list',
  'segments.find',
  'segments.highest',
  'segments.add',
  'segments.update',
  'segments.deletePartition',
  'segments.caughtUp',
  'segments.transitions',
  'namespaces.list',
  'namespaces.get',
  'namespaces.register',
  'namespaces.put',
  'namespaces.setPlacement',
  'namespaces.deprecate',
  'namespaces.shards',
  'namespaces.takeOwnership',
] as const;

export type ProcedureNameList = (typeof PROCEDURE_NAMES)[number];
