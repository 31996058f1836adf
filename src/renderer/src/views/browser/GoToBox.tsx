/**
 * The bucket browser's "Go to" box: a sequence, an entry id or a key, led to its folder and
 * object (go-to-target); what cannot be led anywhere is said under the box.
 */
import { useState } from 'react';
import { formText } from '../../components/form-text';
import { useUiStore } from '../../state/ui-store';
import { goToTarget, type GoToTarget } from './go-to-target';

export function GoToBox({ folder, onGo }: { folder: string; onGo: (target: GoToTarget) => void }) {
  const walPrefix = useUiStore((state) => state.walPrefix);
  const [problem, setProblem] = useState<string | null>(null);
  return (
    <form
      className="inline"
      aria-label="Go to"
      onSubmit={(event) => {
        event.preventDefault();
        const target = goToTarget(
          formText(new FormData(event.currentTarget), 'target'),
          folder,
          walPrefix,
        );
        if (target instanceof Error) return setProblem(target.message);
        setProblem(null);
        onGo(target);
      }}
    >
      <input
        name="target"
        aria-label="Go to sequence or key"
        placeholder="Sequence, seq:position or key"
        className="mono"
        autoComplete="off"
      />
      <button type="submit">Jump</button>
      {problem && (
        <span role="alert" className="form-problem small">
          {problem}
        </span>
      )}
    </form>
  );
}
