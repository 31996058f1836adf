/** UI-only state (which view, which connection): never server data, which TanStack Query owns. */
import { create } from 'zustand';

export const VIEWS = [
  { id: 'overview', label: 'Overview', shortcut: '1' },
  { id: 'browser', label: 'Bucket browser', shortcut: '2' },
  { id: 'batches', label: 'Batches', shortcut: '3' },
  { id: 'regions', label: 'Regions', shortcut: '4' },
  { id: 'replay', label: 'Replay', shortcut: '5' },
  { id: 'namespaces', label: 'Namespaces', shortcut: '6' },
  { id: 'segments', label: 'Tiered segments', shortcut: '7' },
  { id: 'manifest', label: 'Manifest', shortcut: '8' },
  { id: 'activity', label: 'Activity', shortcut: '9' },
  { id: 'connections', label: 'Connections', shortcut: '0' },
] as const;

export type ViewId = (typeof VIEWS)[number]['id'];

interface UiState {
  view: ViewId;
  connectionId: string;
  showView: (view: ViewId) => void;
  selectConnection: (id: string) => void;
  /** The WAL prefix the WAL views show (shared by Overview, Batches, Regions, Replay, Manifest). */
  walPrefix: string | null;
  selectWalPrefix: (prefix: string | null) => void;
}

export const useUiStore = create<UiState>((set) => ({
  view: 'connections',
  connectionId: 'embedded',
  showView: (view) => set({ view }),
  selectConnection: (connectionId) => set({ connectionId }),
  walPrefix: null,
  selectWalPrefix: (walPrefix) => set({ walPrefix }),
}));
