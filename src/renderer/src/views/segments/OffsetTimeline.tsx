/**
 * The offset axis of a partition: one bar per segment from its start to its end offset,
 * coloured by state. Each bar is a labelled list item, so the timeline reads as a list of
 * segments to a screen reader. Pure drawing; no data fetching.
 */
import type { Segment, SegmentState } from '../../../../shared/contract/segments';
import { SEGMENT_STATE_NAMES } from '../../../../shared/contract/segments';
import { shortId, stateClass } from './segment-words';

const WIDTH = 1000;
const BAR_Y = 10;
const BAR_HEIGHT = 26;

export function OffsetTimeline({
  segments,
  label,
}: {
  segments: readonly Segment[];
  label: string;
}) {
  if (segments.length === 0) return <p className="muted">No segments to draw.</p>;
  const first = Math.min(...segments.map((s) => s.startOffset));
  const last = Math.max(...segments.map((s) => s.endOffset));
  const span = Math.max(1, last - first + 1);
  const x = (offset: number) => ((offset - first) / span) * WIDTH;
  return (
    <figure className="segments-timeline">
      <svg
        className="timeline"
        viewBox={`0 0 ${WIDTH} 56`}
        preserveAspectRatio="none"
        role="list"
        aria-label={`Offset timeline of ${label}`}
      >
        {segments.map((segment) => {
          const text = `Segment ${shortId(segment.segmentId)}: offsets ${segment.startOffset} to ${segment.endOffset}, ${segment.state}`;
          return (
            <g key={segment.segmentId} role="listitem" aria-label={text}>
              <title>{text}</title>
              <rect
                className={stateClass(segment.state)}
                x={x(segment.startOffset)}
                y={BAR_Y}
                width={Math.max(2, x(segment.endOffset + 1) - x(segment.startOffset) - 1)}
                height={BAR_HEIGHT}
                rx={3}
              />
            </g>
          );
        })}
        <text x={2} y={52} aria-hidden="true">
          {first}
        </text>
        <text x={WIDTH - 2} y={52} textAnchor="end" aria-hidden="true">
          {last}
        </text>
      </svg>
      <figcaption>
        <ul className="legend" aria-label="Timeline colours">
          {SEGMENT_STATE_NAMES.map((state: SegmentState) => (
            <li key={state}>
              <svg width="10" height="10" aria-hidden="true">
                <rect className={stateClass(state)} width="10" height="10" rx="2" />
              </svg>
              {state}
            </li>
          ))}
        </ul>
      </figcaption>
    </figure>
  );
}
