/**
 * Canonical JSON: object keys in code-unit order at every depth, so one value has one
 * encoding (stable bytes in shard cells, and equality by comparing strings). Owns only the
 * ordering; never checks what a value may contain (see `validation`, which also bounds the
 * depth this recursion meets).
 */
import type { JsonObject, JsonValue } from './record';

function isJsonArray(value: JsonValue): value is readonly JsonValue[] {
  return Array.isArray(value);
}

function byKey(a: readonly [string, JsonValue], b: readonly [string, JsonValue]): number {
  return a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0;
}

function canonicalValue(value: JsonValue): JsonValue {
  if (isJsonArray(value)) return value.map(canonicalValue);
  if (value !== null && typeof value === 'object') return canonicalObject(value);
  return value;
}

/** A fresh, key-ordered copy of an object, sharing nothing with the caller's value. */
export function canonicalObject(value: JsonObject): JsonObject {
  // fromEntries defines own data properties, so a key such as "__proto__" stays a key.
  return Object.fromEntries(
    Object.entries(value)
      .sort(byKey)
      .map(([key, inner]) => [key, canonicalValue(inner)]),
  );
}

export function canonicalJson(value: JsonValue): string {
  return JSON.stringify(canonicalValue(value));
}
