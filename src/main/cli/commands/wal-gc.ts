/**
 * `cairn wal gc [--dry-run] [--take-over] [--json]`: one garbage-collection pass on a WAL
 * prefix (control.md point 5). A pass takes the epoch like `wal obsolete` - which fences a
 * live writer, so a register written in the last 30 s is refused without `--take-over` - by a
 * writer open when the prefix opens, else by a maintenance open (step (a) only), which still
 * finishes the deletes an earlier pass left below the boundary. `--dry-run` takes nothing and
 * writes nothing: it reads the register, lists and judges, and prints exactly what a pass
 * would delete and the bytes freed, what holds the boundary back, and who holds the register
 * (the epoch a pass would fence, and whether that writer looks live). A pass first judges as
 * a dry run does: with nothing to delete and a boundary that would not move, it takes no
 * epoch (a live writer is never fenced for nothing) and says so. A pass that deleted anything
 * appends one entry to the app's audit log.
 */
import { counted } from '../../../shared/plural';
import type { Command } from 'commander';
import type { ObjectIo } from '../../engine/objectio/object-io';
import type { ObjectStoreWalConfigInput } from '../../engine/wal/config';
import { emptyControlState } from '../../engine/wal/control-fields';
import { collectAsMaintenance, dryRunFromRegister, type GcReport } from '../../engine/wal/gc';
import { inspectPrefix } from '../../engine/wal/inspect';
import { openMaintenance } from '../../engine/wal/open';
import { readControl, registerStoreOf } from '../../engine/wal/register';
import { ObjectStoreLogStore } from '../../engine/wal/store';
import { checkNoLiveWriter } from '../../services/wal/live-writer';
import { printJson, printLines } from '../output';
import { formatEntryId, formatRegionId } from '../../../shared/id-notation';
import {
  holderText,
  registerHolderOf,
  type RegisterHolder,
} from '../../services/wal/register-holder';
import { auditCliDeletion, auditedCliAction } from './cli-audit';
import { dataDirOf } from '../data-dir-flag';
import { withProgress } from '../progress';
import { runAction } from '../run-action';
import { CAIRN_FORMAT } from '../../engine/wal-read/format';
import { CommandIndex } from './command-index';
import {
  openWalTarget,
  prefixOfConfig,
  withAllowEmpty,
  withWalFlags,
  type WalOptions,
} from './wal-config';

interface GcOptions extends WalOptions {
  dryRun?: boolean;
  takeOver?: boolean;
  json?: boolean;
  /** commander's `--no-cache` sets `cache: false`. */
  cache?: boolean;
}

/**
 * How the pass held the epoch (a writer open, or a maintenance open of a prefix that does not
 * open); for a dry run, the register's holder as it looks: live, idle, or none.
 */
type Holder = 'writer' | 'maintenance' | 'live-writer' | 'idle-writer' | 'none' | 'not-taken';

export function registerWalGcCommand(wal: Command): void {
  const command = withWalFlags(
    wal
      .command('gc')
      .description(
        'Collect the objects nothing needs any more (takes the epoch: fences a live writer)',
      ),
  )
    .option(
      '--dry-run',
      'list what a pass would delete and the bytes freed; take and write nothing',
    )
    .option('--take-over', 'fence a writer that may be live')
    .option('--json', 'JSON output')
    .option('--no-cache', 'neither use nor fill the local index');
  withAllowEmpty(command).action(runAction(gcAction));
}

async function gcAction(options: GcOptions): Promise<void> {
  const { io, link, config } = await openWalTarget(options, {}, true);
  const prefix = prefixOfConfig(config);
  const register = await registerHolderOf(io, prefix, false);
  const trigger = {
    action: 'cli wal gc',
    parameters: { prefix, takeOver: String(options.takeOver === true) },
  };
  const dataDir = dataDirOf(options);
  // The check before the epoch and the writer's open recall from the local index: each object
  // is read at most once, and not at all when an earlier command (verify, obsolete) read it.
  const index = await CommandIndex.open(io, prefix, CAIRN_FORMAT, options.cache !== false);
  const { report, holder, epoch } = await withProgress('gc', link, async () =>
    options.dryRun
      ? { report: await dryRun(io, prefix), ...dryRunHolder(register) }
      : await auditedCliAction(dataDir, { ...trigger, target: prefix }, async () => {
          const collected = await collect(io, config, index, options.takeOver === true);
          await auditCliDeletion(collected.report, trigger, io.endpoint, dataDir);
          return collected;
        }),
  ).finally(() => index.done());
  if (options.json)
    printJson({ ...report, failure: report.failure?.message ?? null, holder, epoch, register });
  else
    printLines([
      ...describe(report, holder, epoch),
      ...(options.dryRun ? [holderText(register)] : []),
    ]);
  if (report.failure !== null) process.exitCode = 1;
}

/** A dry run takes nothing: it names the register's holder, the epoch a pass would fence. */
function dryRunHolder(register: RegisterHolder | null): { holder: Holder; epoch: bigint | null } {
  if (register === null) return { holder: 'none', epoch: null };
  return { holder: register.live ? 'live-writer' : 'idle-writer', epoch: register.epoch };
}

async function dryRun(
  io: ObjectIo,
  prefix: string,
  index: CommandIndex | null = null,
): Promise<GcReport> {
  const store = registerStoreOf(io, prefix);
  const reread = async () => (await readControl(store))?.control ?? emptyControlState();
  const options = index === null ? {} : { memo: index.tailMemo() };
  return dryRunFromRegister(io, prefix, await reread(), reread, options);
}

export async function collect(
  io: ObjectIo,
  config: ObjectStoreWalConfigInput,
  index: CommandIndex,
  takeOver: boolean,
): Promise<{ report: GcReport; holder: Holder; epoch: bigint | null }> {
  const prefix = prefixOfConfig(config);
  // Nothing to delete and no boundary to raise: no epoch is taken, no writer fenced.
  const judged = await dryRun(io, prefix, index);
  if (judged.objects.length === 0 && judged.boundary === judged.previousBoundary)
    return {
      report: { ...judged, dryRun: false, heldBack: undefined },
      holder: 'not-taken',
      epoch: null,
    };
  await checkNoLiveWriter(io, prefix, takeOver);
  const opens = (await inspectPrefix(io, config, { memo: index.tailMemo() })).failure === null;
  if (!opens) {
    const session = await openMaintenance(io, config);
    return {
      report: await collectAsMaintenance(session),
      holder: 'maintenance',
      epoch: session.epoch,
    };
  }
  const store = await ObjectStoreLogStore.open(io, config, {
    gcAfterObsolete: false,
    scanMemo: () => index.tailMemo(),
  });
  try {
    return { report: await store.gc(), holder: 'writer', epoch: store.epoch };
  } finally {
    await store.stop();
  }
}

function describe(report: GcReport, holder: Holder, epoch: bigint | null): string[] {
  const verb = report.dryRun ? 'would delete' : 'deleted';
  const lines = report.objects.map((o) => `${verb}  ${o.key}  ${o.size} B`);
  lines.push(
    `boundary ${report.previousBoundary} -> ${report.boundary}${report.dryRun ? ' (dry run)' : ''}`,
    `${report.objects.length} objects, ${report.bytes} bytes ${report.dryRun ? 'would be freed' : 'freed'}`,
  );
  if (epoch !== null && !report.dryRun) lines.push(`epoch ${epoch} (${holder} open)`);
  if (holder === 'not-taken') lines.push('nothing to collect: no epoch taken, no writer fenced');
  const held = report.heldBack;
  if (report.dryRun && held !== undefined && held !== null)
    lines.push(
      held.tipOnly
        ? `held back at seq ${held.seq}: the tip (every object below it is wholly obsolete)`
        : `held back at seq ${held.seq} by ${held.regions
            .map(
              (r) =>
                `region ${formatRegionId(r.regionId)} (watermark ${formatEntryId(r.watermark)}, last id ${formatEntryId(r.lastId)})`,
            )
            .join(', ')}`,
    );
  if (report.unjudged !== null)
    lines.push(
      `the chain could not be judged (${report.unjudged.code}): the boundary did not move`,
    );
  if (report.failure !== null)
    lines.push(
      `${counted(report.remaining, 'object')} left for the next pass: ${report.failure.message}`,
    );
  return lines;
}
