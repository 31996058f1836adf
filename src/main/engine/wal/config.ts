/**
 * `ObjectStoreWalConfig`: every setting of a WAL store, its default and its valid range, in
 * one schema (wal.md, "Configuration"). `validateWalConfig` turns what a caller wrote into a
 * full config or throws `InvalidConfig` naming the first field that breaks its rule. Nothing
 * here opens storage or derives behaviour from the settings.
 */
import { z } from 'zod';
import { InvalidConfigError } from './errors';

export type AckMode = 'durable' | 'enqueued';
export type AckFence = 'register' | 'none';
export type OnCorruptedSegment = 'skip' | 'fail';

export interface ObjectStoreWalConfig {
  /** Relative root of every log: no leading slash, no empty, `.` or `..` parts. */
  readonly root: string;
  readonly nodeId: bigint;
  readonly generation: number;
  readonly flushIntervalMs: number;
  readonly maxBatchBytes: number;
  /** The largest object the store accepts (S3: 5 GiB per PUT). An entry whose one-entry
   * object would be larger is refused at admission (`EntryTooLarge`). */
  readonly maxObjectBytes: number;
  readonly ackMode: AckMode;
  readonly ackFence: AckFence;
  readonly maxInFlightCreates: number;
  readonly maxSealedBatches: number;
  readonly maxUnpersistedBytes: number;
  readonly maxUnpersistedAgeMs: number;
  readonly onCorruptedSegment: OnCorruptedSegment;
}

/** What a caller may write: the identity fields, anything else optional. `nodeId` may be text. */
export type ObjectStoreWalConfigInput = Pick<ObjectStoreWalConfig, 'root' | 'generation'> & {
  readonly nodeId: bigint | number | string;
} & Partial<Omit<ObjectStoreWalConfig, 'root' | 'nodeId' | 'generation'>>;

const MIB = 1024 * 1024;
const GIB = 1024 * MIB;
const U32_MAX = 0xffff_ffff;
const U64_LIMIT = 1n << 64n;

export const WAL_CONFIG_DEFAULTS = {
  flushIntervalMs: 100,
  maxBatchBytes: 8 * MIB,
  maxObjectBytes: 5 * GIB,
  ackMode: 'durable',
  ackFence: 'register',
  maxInFlightCreates: 4,
  maxSealedBatches: 16,
  maxUnpersistedBytes: 64 * MIB,
  maxUnpersistedAgeMs: 8000,
  onCorruptedSegment: 'skip',
} as const satisfies Partial<ObjectStoreWalConfig>;

/** Why `root` cannot prefix WAL keys, or null when it can. */
function rootProblem(root: string): string | null {
  if (root === '') return 'must not be empty';
  if (root.startsWith('/')) return 'must be relative (no leading "/")';
  const parts = root.split('/');
  if (parts.some((part) => part === ''))
    return 'must not have empty parts ("//" or a trailing "/")';
  // "." is refused as well as "..": a directory backend would collapse it and list other keys.
  if (parts.some((part) => part === '.' || part === '..')) return 'must not have "." or ".." parts';
  return null;
}

function u64Of(value: unknown): bigint | null {
  let candidate: bigint | null = null;
  if (typeof value === 'bigint') candidate = value;
  else if (typeof value === 'number' && Number.isSafeInteger(value)) candidate = BigInt(value);
  else if (typeof value === 'string' && /^\d{1,20}$/.test(value)) candidate = BigInt(value);
  return candidate !== null && candidate >= 0n && candidate < U64_LIMIT ? candidate : null;
}

function integerIn(min: number, max: number, rule: string) {
  return z.int({ error: rule }).min(min, { error: rule }).max(max, { error: rule });
}

function oneOf<const T extends readonly [string, ...string[]]>(values: T) {
  return z.enum(values, { error: `must be one of ${values.map((v) => `"${v}"`).join(', ')}` });
}

const configSchema = z.strictObject({
  root: z.string({ error: 'must be a string' }).transform((root, ctx) => {
    const problem = rootProblem(root);
    if (problem !== null) ctx.issues.push({ code: 'custom', message: problem, input: root });
    return root;
  }),
  nodeId: z.unknown().transform((value, ctx) => {
    const nodeId = u64Of(value);
    if (nodeId !== null) return nodeId;
    const message =
      value === undefined
        ? 'is required'
        : 'must be a u64 (a bigint, a non-negative integer or decimal digits)';
    ctx.issues.push({ code: 'custom', message, input: value });
    return z.NEVER;
  }),
  generation: integerIn(0, U32_MAX, `must be an integer from 0 to ${U32_MAX} (a u32)`),
  flushIntervalMs: integerIn(
    10,
    Number.MAX_SAFE_INTEGER,
    'must be an integer of at least 10 (ms)',
  ).default(WAL_CONFIG_DEFAULTS.flushIntervalMs),
  maxBatchBytes: integerIn(
    1,
    Number.MAX_SAFE_INTEGER,
    'must be a positive integer (bytes)',
  ).default(WAL_CONFIG_DEFAULTS.maxBatchBytes),
  maxObjectBytes: integerIn(
    1,
    Number.MAX_SAFE_INTEGER,
    'must be a positive integer (bytes)',
  ).default(WAL_CONFIG_DEFAULTS.maxObjectBytes),
  ackMode: oneOf(['durable', 'enqueued']).default(WAL_CONFIG_DEFAULTS.ackMode),
  ackFence: oneOf(['register', 'none']).default(WAL_CONFIG_DEFAULTS.ackFence),
  maxInFlightCreates: integerIn(1, 16, 'must be an integer from 1 to 16').default(
    WAL_CONFIG_DEFAULTS.maxInFlightCreates,
  ),
  maxSealedBatches: integerIn(1, 30, 'must be an integer from 1 to 30').default(
    WAL_CONFIG_DEFAULTS.maxSealedBatches,
  ),
  maxUnpersistedBytes: integerIn(
    1,
    Number.MAX_SAFE_INTEGER,
    'must be a positive integer (bytes)',
  ).default(WAL_CONFIG_DEFAULTS.maxUnpersistedBytes),
  maxUnpersistedAgeMs: integerIn(
    1,
    Number.MAX_SAFE_INTEGER,
    'must be a positive integer (ms)',
  ).default(WAL_CONFIG_DEFAULTS.maxUnpersistedAgeMs),
  onCorruptedSegment: oneOf(['skip', 'fail']).default(WAL_CONFIG_DEFAULTS.onCorruptedSegment),
});

// The schema and the interface must describe the same output; this fails to compile if not.
const schemaMatchesInterface = (parsed: z.output<typeof configSchema>): ObjectStoreWalConfig =>
  parsed;
void schemaMatchesInterface;

/** A full config from a partial one, or `InvalidConfig(field, rule)` for the first bad field. */
export function validateWalConfig(
  input: ObjectStoreWalConfigInput | Record<string, unknown>,
): ObjectStoreWalConfig {
  const result = configSchema.safeParse(input);
  if (result.success) return result.data;
  const issue = result.error.issues[0];
  if (issue === undefined) throw new InvalidConfigError('(config)', 'is invalid');
  if (issue.code === 'unrecognized_keys')
    throw new InvalidConfigError(issue.keys[0] ?? '(config)', 'is not a WAL setting');
  const field = issue.path.length === 0 ? '(config)' : issue.path.map(String).join('.');
  throw new InvalidConfigError(field, field === '(config)' ? 'must be an object' : issue.message);
}
