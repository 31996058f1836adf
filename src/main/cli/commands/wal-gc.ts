/**
 * `cairn wal gc [--dry-run] [--take-over] [--json]`: one garbage-collection pass on a WAL
 * prefix (control.md point 5). A pass takes the epoch like `wal obsolete` - which fences a
 * live writer, so a register written in the last 30 s is refused without `--take-over` - by a
 * writer open when the prefix opens, else by a maintenance open (step (a) only), which still
 * finishes the deletes an earlier pass left below the boundary. `--dry-run` takes nothing and
 * writes nothing: it reads the register, lists and judges, and prints exactly what a pass
 * would delete and the bytes freed, what holds the boundary back, and who holds the register
 * (the epoch a pass would fence, and whether that writer looks live). A pass that deleted
 * anything appends one entry to the app's audit log.
 */
import { counted } from '../../../shared/plural';
import type { Command } from 'commander';
import type { ObjectIo } from '../../engine/objectio/object-io';
import { validateWalConfig, type ObjectStoreWalConfigInput } from '../../engine/wal/config';
import { emptyControlState } from '../../engine/wal/control-fields';
import { collectAsMaintenance, dryRunFromRegister, type GcReport } from '../../engine/wal/gc';
import { inspectPrefix } from '../../engine/wal/inspect';
import { walPrefix } from '../../engine/wal/keys';
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
import { auditCliDeletion } from './cli-audit';
import { dataDirOf } from '../data-dir-flag';
import { withProgress } from '../progress';
import { runAction } from '../run-action';
import { openWalTarget, withWalFlags, type WalOptions } from './wal-config';

interface GcOptions extends WalOptions {
  dryRun?: boolean;
  takeOver?: boolean;
  json?: boolean;
}

/**
 * How the pass held the epoch (a writer open, or a maintenance open of a prefix that does not
 * open); for a dry run, the register's holder as it looks: live, idle, or none.
 */
type Holder = 'writer' | 'maintenance' | 'live-writer' | 'idle-writer' | 'none';

export function registerWalGcCommand(wal: Command): void {
  withWalFlags(
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
    .action(runAction(gcAction));
}

async function gcAction(options: GcOptions): Promise<void> {
  const { io, link, config } = await openWalTarget(options);
  const valid = validateWalConfig(config);
  const prefix = walPrefix(valid.root, valid.nodeId, valid.generation);
  const register = await registerHolderOf(io, prefix, false);
  const { report, holder, epoch } = await withProgress('gc', link, async () =>
    options.dryRun
      ? { report: await dryRun(io, prefix), ...dryRunHolder(register) }
      : await collect(io, config, prefix, options.takeOver === true),
  );
  if (!report.dryRun)
    await auditCliDeletion(
      report,
      { action: 'cli wal gc', parameters: { prefix, takeOver: String(options.takeOver === true) } },
      io.endpoint,
      dataDirOf(options),
    );
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

async function dryRun(io: ObjectIo, prefix: string): Promise<GcReport> {
  const store = registerStoreOf(io, prefix);
  const reread = async () => (await readControl(store))?.control ?? emptyControlState();
  return dryRunFromRegister(io, prefix, await reread(), reread);
}

async function collect(
  io: ObjectIo,
  config: ObjectStoreWalConfigInput,
  prefix: string,
  takeOver: boolean,
): Promise<{ report: GcReport; holder: Holder; epoch: bigint }> {
  await checkNoLiveWriter(io, prefix, takeOver);
  const opens = (await inspectPrefix(io, config)).failure === null;
  if (!opens) {
    const session = await openMaintenance(io, config);
    return {
      report: await collectAsMaintenance(session),
      holder: 'maintenance',
      epoch: session.epoch,
    };
  }
  const store = await ObjectStoreLogStore.open(io, config, { gcAfterObsolete: false });
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
