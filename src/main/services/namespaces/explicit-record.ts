/**
 * The record an operator creates on purpose (console "create explicit", `cairn ns put`):
 * origin `explicit`, active, stamped now. Owns only that shape; the engine checks it.
 */
import type { JsonObject, NamespacePlacement, NamespaceRecord } from '../../engine/namespaces';

export function explicitRecord(
  name: string,
  config: JsonObject,
  placement: NamespacePlacement,
  now: number,
): NamespaceRecord {
  return {
    name,
    origin: 'explicit',
    createdAt: now,
    lastSeen: now,
    config,
    state: 'active',
    placement,
  };
}
