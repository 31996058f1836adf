/**
 * The API contract: every procedure by name, with its schemas and access. The router, the
 * preload's named functions and the renderer's client are all typed from this one table.
 */
import type { z } from 'zod';
import { appProcedures } from './app';
import { auditProcedures } from './audit';
import { connectionProcedures } from './connections';
import { demoProcedures } from './demo';
import { objectProcedures } from './objects';
import { namespaceProcedures } from './namespaces';
import { segmentProcedures } from './segments';
import { walProcedures } from './wal';
import { walScrubProcedures } from './wal-scrub';
import { walNavigationProcedures } from './wal-navigation';
import { walBulkObsoleteProcedures } from './wal-bulk-obsolete';
import { walWatermarkRequestProcedures } from './wal-watermark-requests';
import { walPreflightProcedures } from './wal-preflight';
import { walSearchProcedures } from './wal-search';
import { uiPlaceProcedures } from './ui-place';

export const contract = {
  ...appProcedures,
  ...connectionProcedures,
  ...objectProcedures,
  ...auditProcedures,
  ...segmentProcedures,
  ...walProcedures,
  ...walScrubProcedures,
  ...walNavigationProcedures,
  ...walBulkObsoleteProcedures,
  ...walWatermarkRequestProcedures,
  ...walPreflightProcedures,
  ...walSearchProcedures,
  ...namespaceProcedures,
  ...demoProcedures,
  ...uiPlaceProcedures,
};

export type Contract = typeof contract;
export type ProcedureName = keyof Contract;
export type InputOf<K extends ProcedureName> = z.input<Contract[K]['input']>;
export type ParsedInputOf<K extends ProcedureName> = z.output<Contract[K]['input']>;
export type OutputOf<K extends ProcedureName> = z.output<Contract[K]['output']>;

export const procedureNames = Object.keys(contract) as ProcedureName[];

export function isProcedureName(name: unknown): name is ProcedureName {
  return typeof name === 'string' && Object.hasOwn(contract, name);
}

export type { ApiEvent, AuditEntry } from './events';
export type { AppInfo } from './app';
export type {
  Connection,
  ConnectionSpec,
  ConnectionTest,
  LinkMeasure,
  LinkView,
} from './connections';

// The preload's name list must be exactly the contract's keys.
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
const namesMatch: Same<ProcedureName, import('../procedure-names').ProcedureNameList> = true;
void namesMatch;
