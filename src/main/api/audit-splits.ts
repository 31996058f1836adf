/**
 * Calls that act on several targets at once are audited one entry per target, so the activity
 * log answers "who obsoleted region 1:3, up to what" the same way for one call and for a bulk.
 * A split turns a call's input and its outcome (its result, or its typed error) into each
 * entry's target, parameters and result. It acts on nothing; the router records the entries.
 */
import type { WireError } from '../../shared/api-error';
import type { OutputOf, ParsedInputOf, ProcedureName } from '../../shared/contract';
import type { ObsoletePoint } from '../../shared/contract/wal-bulk-obsolete';
import { formatEntryId, formatRegionId } from '../../shared/id-notation';

export interface AuditPart {
  readonly target: string;
  readonly parameters: Readonly<Record<string, unknown>>;
  readonly result: 'ok' | 'error';
  readonly error?: string;
}

export type CallOutcome<K extends ProcedureName> =
  | { readonly ok: true; readonly output: OutputOf<K> }
  | { readonly ok: false; readonly error: WireError };

type AuditSplit<K extends ProcedureName> = (
  input: ParsedInputOf<K>,
  outcome: CallOutcome<K>,
) => AuditPart[];

/** A point as the log keeps it: ids in `seq:position`, a time in ISO UTC. */
function pointParameters(point: ObsoletePoint): Record<string, string> {
  if (point.kind === 'id') return { kind: 'id', id: formatEntryId(point.id) };
  if (point.kind === 'time') return { kind: 'time', at: new Date(point.atMs).toISOString() };
  return { kind: 'latest' };
}

/** One entry per region: what it was obsoleted up to, or why it was not. */
const bulkObsolete: AuditSplit<'wal.obsolete.bulk'> = (input, outcome) => {
  const count = input.regions === 'all' ? 'all' : input.regions.length;
  const base = { prefix: input.prefix, bulk: count };
  if (outcome.ok)
    return outcome.output.regions.map((region) => ({
      target: formatRegionId(region.region),
      parameters: {
        ...base,
        region: formatRegionId(region.region),
        upTo: pointParameters(region.upTo),
        id: formatEntryId(region.id),
        hiddenEntries: region.hiddenEntries,
        noChange: region.noChange,
      },
      result: 'ok',
    }));
  const { code, message, details } = outcome.error;
  if (code === 'BulkObsoleteStopped') {
    const listed = (field: string) =>
      typeof details[field] === 'string' && details[field] !== ''
        ? String(details[field]).split(' ')
        : [];
    const failed = String(details.region);
    const stopped = `${String(details.causeCode)}: ${String(details.causeMessage)}`;
    return [
      ...listed('applied').map((region) => ({ region, result: 'ok' as const })),
      { region: failed, result: 'error' as const, error: stopped },
      ...listed('notRun').map((region) => ({
        region,
        result: 'error' as const,
        error: `NotRun: the bulk stopped at region ${failed}`,
      })),
    ].map(({ region, ...result }) => ({
      target: region,
      parameters: { ...base, region },
      ...result,
    }));
  }
  // Refused before any region changed: each region named, or the prefix's regions as one.
  const refused = { result: 'error' as const, error: `${code}: ${message}` };
  if (input.regions === 'all')
    return [
      {
        target: 'all regions',
        parameters: { ...base, upTo: pointParameters(input.upTo) },
        ...refused,
      },
    ];
  return input.regions.map((target) => ({
    target: formatRegionId(target.region),
    parameters: {
      ...base,
      region: formatRegionId(target.region),
      upTo: pointParameters(target.upTo ?? input.upTo),
    },
    ...refused,
  }));
};

const splits: { readonly [K in ProcedureName]?: AuditSplit<K> } = {
  'wal.obsolete.bulk': bulkObsolete,
};

/** The entries of a call that acts on several targets; null for a call audited as one entry. */
export function auditParts<K extends ProcedureName>(
  name: K,
  input: ParsedInputOf<K>,
  outcome: CallOutcome<K>,
): AuditPart[] | null {
  const split: AuditSplit<K> | undefined = splits[name];
  return split === undefined ? null : split(input, outcome);
}
