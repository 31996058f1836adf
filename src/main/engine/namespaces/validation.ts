/**
 * Input rules of the registry: names, configs, placements, origins and whole records. Each
 * check either returns the value in its canonical form or throws the typed error naming the
 * rule it broke. Pure: never touches storage, so a refused input has written nothing.
 */
import { canonicalJson, canonicalObject } from './canonical-json';
import {
  InvalidConfigError,
  InvalidNameError,
  InvalidPlacementError,
  InvalidRecordError,
  type ConfigReason,
} from './errors';
import {
  CONFIG_MAX_BYTES,
  NAME_MAX_LENGTH,
  NAMESPACE_ORIGINS,
  placementSchema,
  recordEnvelopeSchema,
  type JsonObject,
  type NamespaceOrigin,
  type NamespacePlacement,
  type NamespaceRecord,
} from './record';

const NAME_CHARSET = /^[A-Za-z0-9._:/-]*$/;
const NAME_OUTSIDE_CHARSET = /[^A-Za-z0-9._:/-]/;
/** Deeper configs are refused: they could only be cycles or abuse, and would exhaust the stack. */
export const CONFIG_MAX_DEPTH = 64;

/** Returns `name` if it is a valid namespace name; otherwise throws naming the rule. */
export function checkName(name: unknown): string {
  if (typeof name !== 'string')
    throw new InvalidNameError(String(name), 'type', `a name is a string, not ${typeof name}`);
  if (name.length < 1 || name.length > NAME_MAX_LENGTH) {
    throw new InvalidNameError(
      name,
      'length',
      `a name has 1 to ${NAME_MAX_LENGTH} characters, this one ${name.length}`,
    );
  }
  if (!NAME_CHARSET.test(name)) {
    const bad = NAME_OUTSIDE_CHARSET.exec(name)?.[0] ?? '';
    throw new InvalidNameError(
      name,
      'charset',
      `${JSON.stringify(bad)} is outside [A-Za-z0-9._:/-]`,
    );
  }
  if (name.startsWith('/'))
    throw new InvalidNameError(name, 'leading-slash', 'a name must not start with "/"');
  if (name.includes('..'))
    throw new InvalidNameError(name, 'dot-dot', 'a name must not contain ".."');
  return name;
}

export function checkOrigin(namespace: string, origin: unknown): NamespaceOrigin {
  const found = NAMESPACE_ORIGINS.find((known) => known === origin);
  if (found === undefined) {
    throw new InvalidRecordError(
      namespace,
      'origin',
      `expected one of ${NAMESPACE_ORIGINS.join(', ')}`,
    );
  }
  return found;
}

interface ConfigProblem {
  readonly reason: ConfigReason;
  readonly explanation: string;
}

function isPlainObject(value: object): boolean {
  const prototype: unknown = Object.getPrototypeOf(value);
  return prototype === Object.prototype || prototype === null;
}

/** Children of a container value, with the path each is reached by. */
function childrenOf(value: object, path: string): Array<[unknown, string]> {
  if (Array.isArray(value))
    return Array.from(value, (item: unknown, index) => [item, `${path}[${index}]`]);
  return Object.keys(value).map((key) => [Reflect.get(value, key), `${path}.${key}`]);
}

/** Why a value is not plain JSON (walked without recursion, bounded in depth and size). */
function jsonProblem(root: unknown): ConfigProblem | null {
  const pending: Array<[unknown, string, number]> = [[root, 'config', 0]];
  let visited = 0;
  for (let next = pending.pop(); next !== undefined; next = pending.pop()) {
    const [value, path, depth] = next;
    // Every value costs at least one encoded byte, so more than the budget cannot fit it.
    if (++visited > CONFIG_MAX_BYTES)
      return { reason: 'too-large', explanation: `more than ${CONFIG_MAX_BYTES} values` };
    if (value === null || typeof value === 'string' || typeof value === 'boolean') continue;
    if (typeof value === 'number') {
      if (Number.isFinite(value)) continue;
      return { reason: 'not-json', explanation: `${path} is ${value}, which JSON cannot hold` };
    }
    if (typeof value !== 'object' || !(Array.isArray(value) || isPlainObject(value))) {
      const kind = typeof value === 'object' ? (value.constructor?.name ?? 'object') : typeof value;
      return { reason: 'not-json', explanation: `${path} is a ${kind}, which JSON cannot hold` };
    }
    if (depth >= CONFIG_MAX_DEPTH) {
      return {
        reason: 'not-json',
        explanation: `${path} is nested deeper than ${CONFIG_MAX_DEPTH} levels`,
      };
    }
    for (const [child, childPath] of childrenOf(value, path))
      pending.push([child, childPath, depth + 1]);
  }
  return null;
}

function assertJsonObject(namespace: string, config: object): asserts config is JsonObject {
  const problem = jsonProblem(config);
  if (problem !== null)
    throw new InvalidConfigError(namespace, problem.reason, problem.explanation);
}

/** Returns a canonical copy of `config` if it is a JSON object within budget; otherwise throws. */
export function checkConfig(namespace: string, config: unknown): JsonObject {
  if (
    typeof config !== 'object' ||
    config === null ||
    Array.isArray(config) ||
    !isPlainObject(config)
  ) {
    const kind = config === null ? 'null' : Array.isArray(config) ? 'an array' : typeof config;
    throw new InvalidConfigError(
      namespace,
      'not-an-object',
      `config must be a JSON object, not ${kind}`,
    );
  }
  assertJsonObject(namespace, config);
  const bytes = Buffer.byteLength(canonicalJson(config), 'utf8');
  if (bytes > CONFIG_MAX_BYTES) {
    throw new InvalidConfigError(
      namespace,
      'too-large',
      `config encodes to ${bytes} bytes, over ${CONFIG_MAX_BYTES}`,
    );
  }
  return canonicalObject(config);
}

/** Returns the placement with its fields in canonical order (absent ones dropped); otherwise throws. */
export function checkPlacement(namespace: string, placement: unknown): NamespacePlacement {
  const parsed = placementSchema.safeParse(placement);
  if (!parsed.success) {
    const issue = parsed.error.issues
      .map((found) => `${found.path.length > 0 ? found.path.join('.') + ': ' : ''}${found.message}`)
      .join('; ');
    throw new InvalidPlacementError(namespace, issue);
  }
  const directive = parsed.data;
  if (directive === null) return null;
  const { node, region, tier, pinned } = directive;
  return {
    ...(node !== undefined && { node }),
    ...(region !== undefined && { region }),
    ...(tier !== undefined && { tier }),
    ...(pinned !== undefined && { pinned }),
  };
}

/** Checks a record given whole (or read back) and returns it in canonical form. */
export function checkRecord(record: unknown): NamespaceRecord {
  const name = checkName(
    typeof record === 'object' && record !== null ? Reflect.get(record, 'name') : undefined,
  );
  const envelope = recordEnvelopeSchema.safeParse(record);
  if (!envelope.success) {
    const first = envelope.error.issues[0];
    const field = first === undefined || first.path.length === 0 ? 'record' : first.path.join('.');
    throw new InvalidRecordError(name, field, first?.message ?? 'malformed');
  }
  const { origin, createdAt, lastSeen, state } = envelope.data;
  if (lastSeen < createdAt)
    throw new InvalidRecordError(name, 'lastSeen', `${lastSeen} is before createdAt ${createdAt}`);
  const config = checkConfig(name, envelope.data.config);
  const placement = checkPlacement(name, envelope.data.placement);
  return { name, origin, createdAt, lastSeen, config, state, placement };
}

/** Equality of two placements, field by field (an absent field differs from any value). */
export function samePlacement(a: NamespacePlacement, b: NamespacePlacement): boolean {
  if (a === null || b === null) return a === b;
  return a.node === b.node && a.region === b.region && a.tier === b.tier && a.pinned === b.pinned;
}
