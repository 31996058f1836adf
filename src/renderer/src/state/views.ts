/** The views of the navigation, in order, with their shortcut keys. Pure data. */
export const VIEWS = [
  { id: 'overview', label: 'Overview', shortcut: '1' },
  { id: 'browser', label: 'Bucket browser', shortcut: '2' },
  { id: 'batches', label: 'Batches', shortcut: '3' },
  { id: 'regions', label: 'Regions', shortcut: '4' },
  { id: 'replay', label: 'Replay', shortcut: '5' },
  { id: 'search', label: 'Search', shortcut: 'k' },
  { id: 'namespaces', label: 'Namespaces', shortcut: '6' },
  { id: 'segments', label: 'Tiered segments', shortcut: '7' },
  { id: 'manifest', label: 'Manifest', shortcut: '8' },
  { id: 'activity', label: 'Activity', shortcut: '9' },
  { id: 'connections', label: 'Connections', shortcut: '0' },
] as const;

export type ViewId = (typeof VIEWS)[number]['id'];

export function isViewId(value: string): value is ViewId {
  return VIEWS.some((view) => view.id === value);
}
