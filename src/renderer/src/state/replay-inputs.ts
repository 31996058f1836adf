/**
 * The Replay view's inputs remembered per prefix (region and start), so coming back to a
 * prefix finds them as they were, and switching to another prefix never carries over a
 * region that prefix does not have. UI state only, for the page's life.
 */
import { create } from 'zustand';

export interface ReplayInputs {
  /** `table:region`. */
  readonly region: string;
  /** As typed; null: from the region's first entry. */
  readonly from: string | null;
}

interface ReplayInputsState {
  readonly byPrefix: Readonly<Record<string, ReplayInputs>>;
  remember: (connectionId: string, prefix: string, inputs: ReplayInputs) => void;
}

export function prefixKey(connectionId: string, prefix: string): string {
  return `${connectionId}\n${prefix}`;
}

export const useReplayInputs = create<ReplayInputsState>((set) => ({
  byPrefix: {},
  remember: (connectionId, prefix, inputs) =>
    set((state) => {
      const key = prefixKey(connectionId, prefix);
      const known = state.byPrefix[key];
      return known?.region === inputs.region && known.from === inputs.from
        ? {}
        : { byPrefix: { ...state.byPrefix, [key]: inputs } };
    }),
}));

/** What was last used on this prefix, or null. */
export function rememberedInputs(connectionId: string, prefix: string): ReplayInputs | null {
  return useReplayInputs.getState().byPrefix[prefixKey(connectionId, prefix)] ?? null;
}
