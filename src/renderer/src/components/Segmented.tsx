/**
 * A row of mutually exclusive choices shown as tabs (the payload's format, what a view
 * shows): one selected, the others a click away. Holds no state of its own.
 */
export function Segmented<T extends string>({
  label,
  choices,
  value,
  onChange,
}: {
  label: string;
  choices: ReadonlyArray<readonly [T, string]>;
  value: T;
  onChange: (choice: T) => void;
}) {
  return (
    <div role="tablist" aria-label={label} className="segmented">
      {choices.map(([choice, title]) => (
        <button
          key={choice}
          type="button"
          role="tab"
          aria-selected={value === choice}
          onClick={() => onChange(choice)}
        >
          {title}
        </button>
      ))}
    </div>
  );
}
