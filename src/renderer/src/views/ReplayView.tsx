/**
 * Replay: stream one region of the selected prefix from an id (read-only) with progress,
 * pause, resume and cancel; the newest N entries stay on screen (bounded). The region is
 * picked from the prefix's regions and the start checked against it, both remembered per
 * prefix; everything that makes the page what it is - region, start, pace, kept entries,
 * filters, mode, selected entry and whether it runs - is the place's, so a link reopens the
 * same replay (a link to a running one starts it). Entries mode and the Rows mode of GreptimeDB
 * `WalEntry` payloads are in views/wal/replay. A damaged segment the replay skipped is a hole
 * row where it was met (in either mode); the status line counts them and the skipped-damage
 * notice names each with a jump to its row.
 */
import { useEffect, useRef, useState, type FormEvent } from 'react';
import { parseWalRegion } from '../../../shared/contract/wal';
import { formatEntryId, parseEntryId } from '../../../shared/id-notation';
import { useUiStore } from '../state/ui-store';
import { KEEP_CHOICES } from '../state/replay-place';
import { rememberedInputs, useReplayInputs } from '../state/replay-inputs';
import { ErrorPanel } from '../components/ErrorPanel';
import { Segmented } from '../components/Segmented';
import { formText } from '../components/form-text';
import { RowsMode, type ReplayedRange } from './wal/replay/RowsMode';
import { EntriesMode } from './wal/replay/EntriesMode';
import { FromIdPicker, RegionPicker } from './wal/replay/RegionPicker';
import { checkFromId } from './wal/replay/from-id-check';
import { replayFraction } from './wal/replay/replay-fraction';
import { useRegionChoices, type RegionChoices } from './wal/replay/use-region-choices';
import { useReplay } from './wal/use-replay';
import { regionName } from './wal/wal-words';
import { PrefixScopedView } from './wal/PrefixScopedView';
import { SkippedHoles } from './wal/holes/SkippedHoles';
import { useHoleJumps } from './wal/holes/use-hole-jump';
import './wal/wal.css';
import { counted } from '../../../shared/plural';
import { PanelHeading } from '../components/PrefixName';
import { formatCount } from './format';

export function ReplayView() {
  return <PrefixScopedView id="replay" title="Replay" Body={ReplayOf} />;
}

function ReplayOf({ connectionId, prefix }: { connectionId: string; prefix: string }) {
  const place = useUiStore((state) => state.replay);
  const region = useUiStore((state) => state.region);
  const select = useUiStore((state) => state.select);
  const setReplay = useUiStore((state) => state.setReplay);
  const replay = useReplay(place.keep);
  const choices = useRegionChoices(connectionId, prefix);
  const regionRow = choices.rows.find((row) => regionName(row.regionId) === region) ?? null;
  const [problem, setProblem] = useState<string | null>(null);
  const [jump, jumpTo] = useHoleJumps();
  useDefaultRegion(connectionId, prefix, choices);
  const remember = useReplayInputs((state) => state.remember);
  useEffect(() => {
    if (region !== null) remember(connectionId, prefix, { region, from: place.from });
  }, [connectionId, prefix, region, place.from, remember]);

  const regionProblem =
    region !== null && regionRow === null && choices.complete
      ? `Region ${region} is not a region of this prefix (it has ${formatCount(choices.rows.length)}): pick one of its regions`
      : null;
  const from = checkFromId(place.from ?? '', regionRow);

  /** Starts the replay the form names; the problem that stops it otherwise. */
  const launch = (pace: number | null): string | null => {
    const regionId = region === null ? null : parseWalRegion(region);
    if (regionId === null) return "Region: pick one of the prefix's regions";
    if (regionProblem !== null) return regionProblem;
    if (!from.ok) return from.problem;
    void replay.start({
      connectionId,
      prefix,
      region: regionId,
      fromId: from.id ?? 1n,
      ratePerSecond: pace ?? undefined,
    });
    return null;
  };

  // A place that runs when opened (a link, coming back to the view) starts its replay once.
  const startOnOpen = useRef(place.run);
  useEffect(() => {
    if (!startOnOpen.current) return;
    // The place stopped running before a region was known (its prefix was gone): not this one's.
    if (!place.run) startOnOpen.current = false;
    if (!place.run || region === null) return;
    startOnOpen.current = false;
    // Its problem, if any, is on screen already (the region's or the start's).
    launch(place.pace);
  });

  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const rateText = formText(new FormData(event.currentTarget), 'rate');
    const pace = rateText === '' ? null : /^\d{1,7}$/.test(rateText) ? Number(rateText) : 0;
    if (pace === 0) return setProblem('Pace: must be a whole number of entries per second');
    startOnOpen.current = false;
    const stopped = launch(pace);
    setProblem(stopped);
    if (stopped === null) setReplay({ pace, run: true, entry: null }, 'push');
  };

  const replayed: ReplayedRange | null = replay.started;
  const progress = replay.progress;
  const active = progress?.state === 'running' || progress?.state === 'paused';
  const selected = place.entry === null ? null : parseEntryId(place.entry);
  const onSelect = (id: bigint) => setReplay({ entry: formatEntryId(id) });
  return (
    <div className="wal-main">
      <form className="wal-replay-form" aria-label="Replay a region" onSubmit={submit} noValidate>
        <RegionPicker
          choices={choices}
          value={region}
          onChange={(picked) => select({ region: picked })}
        />
        <FromIdPicker
          value={place.from}
          region={regionRow}
          onChange={(typed) => setReplay({ from: typed, run: false })}
        />
        <label>
          Pace (entries/s){' '}
          <input
            name="rate"
            inputMode="numeric"
            placeholder="unpaced"
            defaultValue={place.pace ?? ''}
            autoComplete="off"
          />
        </label>
        <label>
          Keep newest
          <select
            aria-label="Keep newest"
            value={place.keep}
            onChange={(event) => setReplay({ keep: Number(event.target.value) })}
          >
            {KEEP_CHOICES.map((choice) => (
              <option key={choice} value={choice}>
                {choice}
              </option>
            ))}
          </select>
        </label>
        <button type="submit" className="primary">
          Start replay
        </button>
        <button
          type="button"
          disabled={progress?.state !== 'running'}
          onClick={() => void replay.pause()}
        >
          Pause
        </button>
        <button
          type="button"
          disabled={progress?.state !== 'paused'}
          onClick={() => void replay.resume()}
        >
          Resume
        </button>
        <button type="button" disabled={!active} onClick={() => void replay.cancel()}>
          Cancel
        </button>
      </form>
      {(problem ?? regionProblem ?? (from.ok ? null : from.problem)) !== null && (
        <p role="alert" className="form-problem">
          {problem ?? regionProblem ?? (from.ok ? null : from.problem)}
        </p>
      )}
      {from.ok && from.notice !== undefined && (
        <p role="status" aria-label="Replay start" className="small wal-warn">
          {from.notice}
        </p>
      )}
      {choices.error && <ErrorPanel error={choices.error} />}
      {replay.error && <ErrorPanel error={replay.error} />}
      {progress && <ReplayProgressBar progress={progress} />}
      {progress?.error && (
        <ErrorPanel error={{ name: progress.error.code, message: progress.error.message }} />
      )}
      {progress && <SkippedHoles count={progress.holes} holes={replay.holes} onJump={jumpTo} />}
      <PanelHeading what="Replay" prefix={replayed?.prefix ?? prefix}>
        {replayed !== null &&
          ` · region ${regionName(replayed.region)} from ${formatEntryId(replayed.fromId)}`}
      </PanelHeading>
      <Segmented
        label="Replay shows"
        choices={[
          ['entries', 'Entries'],
          ['rows', 'Rows'],
        ]}
        value={place.mode}
        onChange={(mode) => setReplay({ mode })}
      />
      {place.mode === 'rows' && replayed !== null ? (
        <RowsMode
          entries={replay.rows}
          holes={replay.holes}
          jump={jump}
          replayed={replayed}
          input={place}
          onInput={({ columns, since, until }) => setReplay({ columns, since, until })}
          selected={selected}
          onSelect={onSelect}
        />
      ) : (
        <EntriesMode
          rows={replay.rows}
          holes={replay.holes}
          region={replayed?.region ?? null}
          keep={place.keep}
          filters={place}
          onFilters={(patch) => setReplay(patch)}
          selected={selected}
          onSelect={onSelect}
          jump={jump}
        />
      )}
    </div>
  );
}

/**
 * The region a place without one shows: the one last used on this prefix when the prefix
 * still has it, else its first region - never a region of another prefix.
 */
function useDefaultRegion(connectionId: string, prefix: string, choices: RegionChoices): void {
  const region = useUiStore((state) => state.region);
  const settle = useUiStore((state) => state.settle);
  const setReplay = useUiStore((state) => state.setReplay);
  const first = choices.rows[0];
  const { complete, rows } = choices;
  useEffect(() => {
    if (region !== null || first === undefined) return;
    const remembered = rememberedInputs(connectionId, prefix);
    const stillHere =
      remembered !== null &&
      (!complete || rows.some((row) => regionName(row.regionId) === remembered.region));
    if (remembered !== null && stillHere) {
      settle({ region: remembered.region });
      setReplay({ from: remembered.from });
    } else settle({ region: regionName(first.regionId) });
  }, [connectionId, prefix, region, first, complete, rows, settle, setReplay]);
}

function ReplayProgressBar({
  progress,
}: {
  progress: NonNullable<ReturnType<typeof useReplay>['progress']>;
}) {
  const fraction = replayFraction(progress);
  return (
    <div className="wal-replay-progress">
      <progress
        aria-label="Replay progress"
        max={1}
        value={progress.state === 'finished' ? 1 : fraction}
      />
      <span role="status" aria-label="Replay status">
        {progress.state} · {counted(progress.delivered, 'entry')}
        {progress.holes > 0 && (
          <span className="wal-warn"> · {counted(progress.holes, 'damaged segment')} skipped</span>
        )}{' '}
        · last id {formatEntryId(progress.lastId)} of {formatEntryId(progress.latestId)}
        {progress.cancelReason !== null && ` · ${progress.cancelReason}`}
      </span>
    </div>
  );
}
