/**
 * Where a page's main thread spent its time, from a Chromium trace (`browser.startTracing` with
 * the devtools.timeline categories): each event's self time (its duration less its children's),
 * summed by event name - script, style (UpdateLayoutTree), layout, pre-paint, paint, layerize.
 * For the scroll A/B (scroll-ab.ts): which part of a frame a change saved.
 */

interface TraceEvent {
  readonly name: string;
  readonly ph: string;
  readonly ts: number;
  readonly dur?: number;
  readonly pid: number;
  readonly tid: number;
  readonly args?: { readonly name?: string };
}

/** Self milliseconds by event name on the renderer's main thread(s), largest first. */
export function mainThreadSelfTime(trace: Buffer): Array<[string, number]> {
  const parsed = JSON.parse(trace.toString('utf8')) as { traceEvents: TraceEvent[] } | TraceEvent[];
  const events = Array.isArray(parsed) ? parsed : parsed.traceEvents;
  const main = new Set(
    events
      .filter((event) => event.name === 'thread_name' && event.args?.name === 'CrRendererMain')
      .map((event) => `${event.pid}:${event.tid}`),
  );
  const self = new Map<string, number>();
  for (const thread of main) selfTimeOf(events, thread, self);
  return [...self.entries()]
    .map(([name, us]): [string, number] => [name, Math.round(us / 10) / 100])
    .sort((a, b) => b[1] - a[1]);
}

/** Adds one thread's self time (us) by event name to `self`: events nest by time on a thread. */
function selfTimeOf(
  events: readonly TraceEvent[],
  thread: string,
  self: Map<string, number>,
): void {
  const complete = events
    .filter((event) => event.ph === 'X' && `${event.pid}:${event.tid}` === thread)
    .sort((a, b) => a.ts - b.ts || (b.dur ?? 0) - (a.dur ?? 0));
  const open: Array<{ readonly event: TraceEvent; readonly end: number; children: number }> = [];
  const close = (until: number): void => {
    while (open.length > 0 && open[open.length - 1]!.end <= until) {
      const done = open.pop()!;
      const own = (done.event.dur ?? 0) - done.children;
      self.set(done.event.name, (self.get(done.event.name) ?? 0) + own);
      if (open.length > 0) open[open.length - 1]!.children += done.event.dur ?? 0;
    }
  };
  for (const event of complete) {
    close(event.ts);
    open.push({ event, end: event.ts + (event.dur ?? 0), children: 0 });
  }
  close(Number.POSITIVE_INFINITY);
}

interface ProfileNode {
  readonly id: number;
  readonly callFrame: { readonly functionName: string; readonly url: string };
}

/** Self milliseconds by function from a CDP CPU profile (`Profiler.stop`), largest first. */
export function profileSelfTime(profile: {
  readonly nodes: readonly ProfileNode[];
  readonly samples?: readonly number[];
  readonly timeDeltas?: readonly number[];
}): Array<[string, number]> {
  const names = new Map<number, string>();
  for (const node of profile.nodes) {
    const file = node.callFrame.url.split('/').pop() ?? '';
    names.set(node.id, `${node.callFrame.functionName || '(anonymous)'} ${file}`.trim());
  }
  const self = new Map<string, number>();
  const samples = profile.samples ?? [];
  const deltas = profile.timeDeltas ?? [];
  // A sample's time is the delta to the next one.
  for (let at = 0; at < samples.length; at++) {
    const name = names.get(samples[at]!) ?? '?';
    self.set(name, (self.get(name) ?? 0) + (deltas[at + 1] ?? 0));
  }
  return [...self.entries()]
    .map(([name, us]): [string, number] => [name, Math.round(us / 10) / 100])
    .sort((a, b) => b[1] - a[1]);
}
