/** "Search this prefix": opens the Search view on a prefix with the filters last used there. */
import { useUiStore } from '../../../state/ui-store';

export function SearchThisPrefix({
  prefix,
  compact = false,
}: {
  prefix: string;
  compact?: boolean;
}) {
  const showView = useUiStore((state) => state.showView);
  return (
    <button
      type="button"
      className={compact ? 'link' : undefined}
      aria-label="Search this prefix"
      title={`Search every region of ${prefix}`}
      onClick={(event) => {
        event.stopPropagation();
        showView('search', { walPrefix: prefix });
      }}
    >
      {compact ? 'Search' : 'Search this prefix'}
    </button>
  );
}
