/**
 * What `cairn wal inspect` adds from the console's memory: the prefix's State in the Overview's
 * words, derived in the one place (`prefixHealth`) from the inspection and the data directory's
 * damage ledger - the damage the console's scrubs and replays (or `wal fleet --verify`) found,
 * each confirmed with the store - and what it covers (objects read whole, when, and how many
 * known only by footer). Reads the ledger; writes nothing of its own.
 */
import type { CoverageView } from '../../../shared/contract/wal-coverage';
import type { PrefixHealthView } from '../../../shared/contract/wal-damage';
import type { AnyInspectReport } from '../../engine/wal-read/read-side';
import { prefixHealth } from '../../services/wal/fleet/prefix-health';
import type { DamageFinding } from '../../services/wal/scrub/damage-ledger';
import { coverageView, DEFAULT_VERIFY_MAX_AGE_MS } from '../../services/wal/scrub/coverage-view';
import { slotOf } from '../../services/wal/wal-locate';
import type { OpenedConnection, ConnectionOptions } from '../connection-flags';
import { openConsoleMemory } from '../console-memory';

export interface InspectHealth {
  readonly health: PrefixHealthView;
  readonly coverage: CoverageView;
  readonly ledger: {
    readonly path: string;
    readonly connectionId: string;
    readonly damage: ReadonlyArray<Pick<DamageFinding, 'key' | 'check' | 'detail' | 'source'>>;
  };
}

export async function inspectHealth(
  options: ConnectionOptions,
  connection: OpenedConnection,
  report: AnyInspectReport,
): Promise<InspectHealth> {
  const memory = await openConsoleMemory(options, connection);
  try {
    const slot = slotOf(memory.connectionId, report.prefix);
    const { findings, coverage } = await memory.findings.atSlot(slot, connection.io, report.format);
    const onChain = new Set(report.chain.map((object) => object.key));
    const covered = coverageView(
      coverage,
      report.chain.map((object) => object.seq),
      Date.now(),
      DEFAULT_VERIFY_MAX_AGE_MS,
    );
    const health = prefixHealth({
      readState: 'read',
      error: null,
      openFailure: report.failure,
      damaged: findings.map((f) => ({
        key: f.key,
        check: f.check,
        ranges: f.ranges,
        onChain: onChain.has(f.key),
      })),
      orphans: report.orphans.length,
      newestObjectAtMs: null,
      floorLag: null,
      coverage: covered,
    });
    const damage = findings.map(({ key, check, detail, source }) => ({
      key,
      check,
      detail,
      source,
    }));
    return {
      health,
      coverage: covered,
      ledger: { path: memory.ledgerPath, connectionId: memory.connectionId, damage },
    };
  } finally {
    await memory.findings.closeAll();
  }
}

/** The lines `inspect` prints after its summary. */
export function inspectHealthLines(found: InspectHealth): string[] {
  return [
    `state         ${found.health.text}`,
    // An unverified State already says what it covers.
    ...(found.health.state === 'unverified' ? [] : [`verified      ${found.coverage.text}`]),
    `ledger        ${found.ledger.path} (${found.ledger.connectionId}): ${found.ledger.damage.length} damaged object${found.ledger.damage.length === 1 ? '' : 's'}`,
    ...found.ledger.damage.map(
      (d) =>
        `DAMAGED  ${d.key}: ${d.check} check failed${d.detail === '' ? '' : ` (${d.detail})`} (found by ${d.source})`,
    ),
  ];
}
