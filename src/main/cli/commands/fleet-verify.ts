/**
 * `cairn wal fleet --verify`: before the fleet answers, every prefix not verified within the
 * verify age (`--max-age`, 24 h by default) is read whole and every CRC checked - the console's
 * scrub, at the whole of the command's link, resuming a pass the console or an earlier run left
 * part-way - and the findings and passes go to the data directory's ledger, where the console
 * and the next run find them. One stderr line per prefix verified. Reads only.
 */
import type { ObjectIo } from '../../engine/objectio/object-io';
import type { FleetSource } from '../../services/wal/fleet/fleet-reader';
import { coverageView } from '../../services/wal/scrub/coverage-view';
import { ScrubGate } from '../../services/wal/scrub/scrub-gate';
import { emptyTally, scrubPrefix } from '../../services/wal/scrub/scrub-prefix';
import { locatePrefix } from '../../services/wal/wal-locate';
import { escapeUnsafeText } from '../../../shared/display-text';
import type { ConsoleMemory } from '../console-memory';

export interface VerifiedPrefix {
  readonly prefix: string;
  /** Objects read whole now (a resumed pass reads only what the stopped one had not). */
  readonly checked: number;
  readonly damaged: number;
  readonly bytes: number;
}

export async function verifyUnverified(
  memory: ConsoleMemory,
  source: FleetSource,
  store: { io: ObjectIo; root: string },
  maxAgeMs: number,
): Promise<VerifiedPrefix[]> {
  const prefixes: string[] = [];
  await source.walk((prefix) => prefixes.push(prefix));
  const verified: VerifiedPrefix[] = [];
  for (const prefix of prefixes.sort()) {
    const at = await locatePrefix(store.io, store.root, memory.connectionId, prefix);
    const covered = coverageView(await memory.findings.coverageOf(at), null, Date.now(), maxAgeMs);
    if (covered.state === 'verified') continue;
    const tally = emptyTally();
    await scrubPrefix(
      { io: at.io, prefix: at.prefix, format: at.format, slot: at.slot },
      memory.findings.ledger,
      new ScrubGate(),
      tally,
      { book: memory.findings.coverage, maxAgeMs },
      { shareOfLink: 1 },
    );
    verified.push({ prefix, checked: tally.checked, damaged: tally.damaged, bytes: tally.bytes });
    const line = `cairn: verified ${prefix}: ${tally.checked} objects read whole, ${tally.damaged} damaged`;
    process.stderr.write(`${escapeUnsafeText(line)}\n`);
  }
  return verified;
}
