/**
 * The read models of every prefix the app has looked at, one per connection and prefix,
 * shared by every view and every browser-mode socket of this process. Kept in least recently
 * used order and evicted beyond a memory budget (their own rough estimate of what they hold);
 * the model just read is never the one evicted, so a single prefix larger than the budget
 * still opens, alone.
 */
import { budgetFromMib } from '../../env-budget';
import { slotParts, type Located } from '../wal-locate';
import type { PrefixIndex } from './prefix-index';
import { PrefixModel, type PrefixSnapshot } from './prefix-model';

export const DEFAULT_READ_MODEL_BUDGET_BYTES = 256 * 1024 * 1024;

/** `CAIRN_READ_MODEL_BUDGET_MIB` when set to a positive number, else the default. */
export function readModelBudgetFromEnv(env: NodeJS.ProcessEnv = process.env): number {
  return budgetFromMib(env.CAIRN_READ_MODEL_BUDGET_MIB, DEFAULT_READ_MODEL_BUDGET_BYTES);
}

export interface ReadModelStats {
  readonly models: number;
  readonly bytes: number;
  readonly budgetBytes: number;
  readonly evicted: number;
}

export class ReadModels {
  /** Map order is the LRU order: the first entry was used longest ago. */
  private readonly models = new Map<string, PrefixModel>();
  private evicted = 0;

  /**
   * @param indexOf the local index of a prefix, when this process keeps one (every model of
   *   the app's services; none in a bench or test that builds its own).
   */
  constructor(
    private readonly budgetBytes = readModelBudgetFromEnv(),
    private readonly indexOf: (at: Located) => PrefixIndex | null = () => null,
    /** Resolves once the local index's saves begun so far have ended (the index store's). */
    private readonly indexSaves: () => Promise<void> = async () => undefined,
  ) {}

  /** Resolves once the saves to the local index begun so far have ended (shutdown, tests). */
  settled(): Promise<void> {
    return this.indexSaves();
  }

  /**
   * The prefix's snapshot, at most `maxAgeMs` old; with `provisional`, while the prefix's
   * first open runs, a provisional one once its newest objects are read (a view's).
   */
  async read(at: Located, maxAgeMs: number, provisional = false): Promise<PrefixSnapshot> {
    const model = this.touch(at);
    try {
      return await model.read(maxAgeMs, Date.now(), provisional);
    } finally {
      this.evictBeyondBudget(at.slot);
    }
  }

  /** Drops the models of a connection that was removed. */
  forget(connectionId: string): void {
    for (const slot of [...this.models.keys()])
      if (slotParts(slot).connectionId === connectionId) this.models.delete(slot);
  }

  stats(): ReadModelStats {
    return {
      models: this.models.size,
      bytes: this.totalBytes(),
      budgetBytes: this.budgetBytes,
      evicted: this.evicted,
    };
  }

  private touch(at: Located): PrefixModel {
    const known = this.models.get(at.slot);
    this.models.delete(at.slot);
    // A prefix first seen empty may turn out GreptimeDB's once objects land, and an edited
    // connection opens a new store under the same id: a new model then.
    const same =
      known !== undefined && known.located.format === at.format && known.located.io === at.io;
    const model = same ? known : new PrefixModel(at, this.indexOf(at));
    this.models.set(at.slot, model);
    return model;
  }

  private totalBytes(): number {
    let total = 0;
    for (const model of this.models.values()) total += model.bytes();
    return total;
  }

  private evictBeyondBudget(keep: string): void {
    let total = this.totalBytes();
    for (const [slot, model] of this.models) {
      if (total <= this.budgetBytes) return;
      if (slot === keep) continue;
      total -= model.bytes();
      this.models.delete(slot);
      this.evicted += 1;
    }
  }
}
