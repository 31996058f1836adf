import { describe, expect, it } from 'vitest';
import { CairnError } from '../../src/main/engine/errors';
import {
  ConflictingObjectError,
  CorruptObjectError,
  CorruptSegmentError,
  EntryTooLargeError,
  FencedError,
  InvalidConfigError,
  InvalidEntryIdError,
  LostBacklogError,
  NoCompleteChainError,
  ObjectGoneError,
  WriterReopenedError,
  PoisonedError,
  SegmentDirectoryFullError,
  SequenceExhaustedError,
  StoppedError,
  TailMissingError,
  WalObjectSequenceUnsettledError,
  WrongProviderError,
  isWalError,
} from '../../src/main/engine/wal/errors';

const REGION = (5n << 32n) | 2n;
const KEY = 'wal/nodes/1/generations/0/objects/00000000000000000003.wal';

describe('the WAL error catalogue', () => {
  it.each([
    [
      new InvalidConfigError('maxSealedBatches', 'must be an integer from 1 to 30'),
      'InvalidConfig',
      { field: 'maxSealedBatches' },
    ],
    [
      new WrongProviderError('prefix a', 'prefix b'),
      'WrongProvider',
      { expected: 'prefix a', got: 'prefix b' },
    ],
    [new InvalidEntryIdError(7n, 'position 0 is never assigned'), 'InvalidEntryId', { id: 7n }],
    [new EntryTooLargeError(REGION, 9, 8), 'EntryTooLarge', { region: REGION, size: 9 }],
    [
      new WalObjectSequenceUnsettledError(REGION, 99n),
      'WalObjectSequenceUnsettled',
      { region: REGION, id: 99n },
    ],
    [new StoppedError('wal/p'), 'Stopped', {}],
    [new FencedError(4n, 'writer-b'), 'Fenced', { epoch: 4n, writerId: 'writer-b' }],
    [new SequenceExhaustedError(2n ** 44n - 1n), 'SequenceExhausted', {}],
    [new CorruptObjectError(KEY, 'footer-crc'), 'CorruptObject', { key: KEY, check: 'footer-crc' }],
    [
      new ConflictingObjectError(KEY, 'its sequence is already indexed'),
      'ConflictingObject',
      { key: KEY },
    ],
    [new NoCompleteChainError('wal/p'), 'NoCompleteChain', { prefix: 'wal/p' }],
    [new TailMissingError(KEY), 'TailMissing', { key: KEY }],
    [
      new CorruptSegmentError(KEY, REGION, 'segment-crc'),
      'CorruptSegment',
      { key: KEY, region: REGION },
    ],
    [new LostBacklogError(12, 2), 'LostBacklog', { count: 12 }],
    [
      new SegmentDirectoryFullError(70_000, 65_536),
      'SegmentDirectoryFull',
      { bytes: 70_000, budget: 65_536 },
    ],
    [new ObjectGoneError(KEY), 'ObjectGone', { key: KEY }],
    [
      new WriterReopenedError('wal/p', 3n, 'start gap spent'),
      'WriterReopened',
      { prefix: 'wal/p', epoch: 3n },
    ],
  ] as const)('%s has its code and fields', (error, code, fields) => {
    expect(error).toBeInstanceOf(CairnError);
    expect(error.code).toBe(code);
    expect(error.name).toBe(code);
    expect(isWalError(error, code)).toBe(true);
    expect(error.details).toMatchObject(fields);
    for (const [field, value] of Object.entries(fields))
      expect((error as unknown as Record<string, unknown>)[field]).toBe(value);
  });

  it('shows regions as tableId:regionNumber', () => {
    expect(new CorruptSegmentError(KEY, REGION, 'segment-crc').message).toContain('region 5:2');
  });

  it('Poisoned carries its terminal cause verbatim', () => {
    const fenced = new FencedError(9n, 'w');
    const poisoned = new PoisonedError(fenced);
    expect(poisoned.cause).toBe(fenced);
    expect(poisoned.terminal).toBe(fenced);
    expect(poisoned.causeCode).toBe('Fenced');
    expect(poisoned.message).toContain(fenced.message);
  });

  it('isWalError tells WAL errors from others', () => {
    expect(isWalError(new Error('x'))).toBe(false);
    expect(isWalError(new StoppedError('p'), 'Fenced')).toBe(false);
  });
});
