/**
 * A prefix's coverage as every health answer shows it (`CoverageView`): whether its objects
 * were all read whole within the verify age, when, how many, and how many of those on the
 * chain now are known only by their footers. The verify age defaults to 24 h
 * (`CAIRN_VERIFY_MAX_AGE`, `--max-age`). Pure.
 */
import type { CoverageView } from '../../../../shared/contract/wal-coverage';
import { relativeTime } from '../../../../shared/relative-time';
import { ageText } from '../../../../shared/lag-text';
import type { PrefixCoverage } from './coverage-book';

export const DEFAULT_VERIFY_MAX_AGE_MS = 24 * 60 * 60 * 1000;

function plural(count: number, word: string): string {
  return `${count.toLocaleString('en-US')} ${word}${count === 1 ? '' : 's'}`;
}

/** The chain objects above what the last complete pass read (all of them without one). */
function footerOnlyOf(
  coverage: PrefixCoverage,
  chainSeqs: readonly bigint[] | null,
): number | null {
  if (chainSeqs === null) return null;
  const through = coverage.complete?.throughSeq ?? null;
  if (coverage.complete === null) return chainSeqs.length;
  return through === null ? chainSeqs.length : chainSeqs.filter((seq) => seq > through).length;
}

export function coverageView(
  coverage: PrefixCoverage,
  chainSeqs: readonly bigint[] | null,
  nowMs: number,
  maxAgeMs: number = DEFAULT_VERIFY_MAX_AGE_MS,
): CoverageView {
  const { complete, partial } = coverage;
  const footerOnly = footerOnlyOf(coverage, chainSeqs);
  const state =
    complete === null ? 'never' : nowMs - complete.startedAtMs > maxAgeMs ? 'stale' : 'verified';
  const footers =
    footerOnly === null || footerOnly === 0
      ? ''
      : `, ${plural(footerOnly, 'object')} only by footer`;
  const under =
    partial === null
      ? ''
      : ` (a verify is under way: ${plural(partial.objects, 'object')} read so far)`;
  let text: string;
  if (complete === null)
    text = `never verified: ${footerOnly === null ? 'objects' : plural(footerOnly, 'object')} known only by footer${under}`;
  else {
    const when = relativeTime(complete.startedAtMs, nowMs);
    const read = `${plural(complete.objects, 'object')} read whole and CRC-checked${footers}`;
    text =
      state === 'stale'
        ? `last verified ${when}, over ${ageText(maxAgeMs)}: ${read}${under}`
        : `verified ${when}: ${read}${under}`;
  }
  return {
    state,
    verifiedAtMs: complete?.startedAtMs ?? null,
    objects: complete?.objects ?? 0,
    bytes: complete?.bytes ?? 0,
    damaged: complete?.damaged ?? 0,
    throughSeq: complete?.throughSeq ?? null,
    footerOnly,
    partial:
      partial === null
        ? null
        : {
            startedAtMs: partial.startedAtMs,
            objects: partial.objects,
            afterKey: partial.afterKey,
          },
    maxAgeMs,
    text,
  };
}

/** `24h`, `90m`, `30s`, `2d` or milliseconds as digits, as people type a verify age; null if not one. */
export function parseAge(text: string): number | null {
  const match = /^(\d+)(ms|s|m|h|d)?$/.exec(text.trim());
  const unit = { ms: 1, s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000 } as const;
  if (match === null) return null;
  const value = Number(match[1]) * unit[(match[2] ?? 'ms') as keyof typeof unit];
  return Number.isSafeInteger(value) && value > 0 ? value : null;
}

/** The verify age the app uses: `CAIRN_VERIFY_MAX_AGE` when set and valid, else 24 h. */
export function verifyMaxAgeOf(env: NodeJS.ProcessEnv = process.env): number {
  const text = env.CAIRN_VERIFY_MAX_AGE;
  return (text === undefined ? null : parseAge(text)) ?? DEFAULT_VERIFY_MAX_AGE_MS;
}
