/**
 * A small live line chart over uPlot: one x series (seconds) and one or more y series. The
 * plot is created once per mount and fed new data with `setData`, so a stream of samples does
 * not rebuild it. uPlot's CSS comes from its file (the CSP forbids inline <style>).
 */
import { useEffect, useRef } from 'react';
import uPlot from 'uplot';
import 'uplot/dist/uPlot.min.css';

export interface ChartSeries {
  readonly label: string;
  readonly color: string;
  readonly values: readonly number[];
}

export function LiveChart({
  title,
  times,
  series,
  height = 160,
}: {
  title: string;
  times: readonly number[];
  series: readonly ChartSeries[];
  height?: number;
}) {
  const host = useRef<HTMLDivElement | null>(null);
  const plot = useRef<uPlot | null>(null);
  const labels = series.map((line) => `${line.label}|${line.color}`).join(',');

  useEffect(() => {
    const element = host.current;
    if (element === null) return;
    const options: uPlot.Options = {
      width: Math.max(element.clientWidth, 240),
      height,
      legend: { show: true },
      scales: { x: { time: true } },
      series: [
        {},
        ...labels.split(',').map((entry) => {
          const [label, color] = entry.split('|');
          return { label, stroke: color, width: 2 };
        }),
      ],
      axes: [{ stroke: 'currentColor' }, { stroke: 'currentColor' }],
    };
    const created = new uPlot(options, [[], ...labels.split(',').map(() => [])], element);
    plot.current = created;
    const resize = new ResizeObserver(() =>
      created.setSize({ width: Math.max(element.clientWidth, 240), height }),
    );
    resize.observe(element);
    return () => {
      resize.disconnect();
      created.destroy();
      plot.current = null;
    };
  }, [labels, height]);

  useEffect(() => {
    plot.current?.setData([[...times], ...series.map((line) => [...line.values])]);
  }, [times, series]);

  return <figure className="live-chart" aria-label={title} ref={host} />;
}
