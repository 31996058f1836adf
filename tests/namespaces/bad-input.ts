/**
 * The bad-input table of the spec, shared by the pure tests and the contract suite: every
 * name rule, configs that are not JSON objects or are too large, unknown placement fields.
 */
import { CONFIG_MAX_BYTES } from '../../src/main/engine/namespaces/record';
import type { ConfigReason, NameRule } from '../../src/main/engine/namespaces/errors';

export const BAD_NAMES: ReadonlyArray<{ label: string; name: string; rule: NameRule }> = [
  { label: 'the empty name', name: '', rule: 'length' },
  { label: 'a 256-character name', name: 'n'.repeat(256), rule: 'length' },
  { label: 'a space', name: 'a b', rule: 'charset' },
  { label: 'a non-ASCII letter', name: 'café', rule: 'charset' },
  { label: 'a backslash', name: 'a\\b', rule: 'charset' },
  { label: 'a leading slash', name: '/team', rule: 'leading-slash' },
  { label: 'a parent segment', name: 'team/../other', rule: 'dot-dot' },
  { label: 'two dots anywhere', name: 'a..b', rule: 'dot-dot' },
];

export const BAD_CONFIGS: ReadonlyArray<{ label: string; config: unknown; reason: ConfigReason }> =
  [
    { label: 'null', config: null, reason: 'not-an-object' },
    { label: 'an array', config: [1, 2], reason: 'not-an-object' },
    { label: 'a string', config: '{"a":1}', reason: 'not-an-object' },
    { label: 'a number', config: 7, reason: 'not-an-object' },
    { label: 'a Date', config: new Date(0), reason: 'not-an-object' },
    { label: 'an undefined value', config: { a: undefined }, reason: 'not-json' },
    { label: 'a NaN', config: { a: Number.NaN }, reason: 'not-json' },
    { label: 'a bigint', config: { a: 1n }, reason: 'not-json' },
    { label: 'a nested Map', config: { a: new Map() }, reason: 'not-json' },
    {
      label: 'a config over 64 KiB',
      config: { k: 'x'.repeat(CONFIG_MAX_BYTES) },
      reason: 'too-large',
    },
    {
      label: 'a config one byte over',
      config: { k: 'x'.repeat(CONFIG_MAX_BYTES - '{"k":""}'.length + 1) },
      reason: 'too-large',
    },
  ];

export const BAD_PLACEMENTS: ReadonlyArray<{ label: string; placement: unknown }> = [
  { label: 'an unknown field', placement: { node: 'n1', zone: 'z' } },
  { label: 'a wrong type', placement: { pinned: 'yes' } },
  { label: 'an empty label', placement: { region: '' } },
  { label: 'a non-object', placement: 'eu' },
];
