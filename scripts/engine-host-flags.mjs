// V8 flags for every process that hosts the engine: Electron's main process (given through
// `--js-flags`, which V8 reads only at start), browser mode's server and the bench.
//
// Why a young generation of 64 MB semi-spaces (V8's default tops out at 16): a saturating
// writer keeps tens of thousands of appends in flight for as long as a create takes. With
// small semi-spaces each scavenge finds most of them still alive and copies them, and those
// pauses are what the UI's IPC waits behind. Measured in the bench's saturating durable run
// (#13 note): event-loop delay p99 local 15-23 ms -> 10-18, S3 29-38 -> 22-29. The memory
// is committed only as the young generation grows under such load. 128 MB was measured too
// (six runs alternating with 64): local p99 9-17 ms against 17-26, but S3 22-30 against
// 20-26 and 130 MB more resident at peak, so not taken.
//
// Why it starts at that size (`--min-semi-space-size=64`): otherwise V8 starts the young
// generation small, grows it by doubling only while collections find much alive, and shrinks it
// again when the process idles, so every burst after a quiet spell first runs through a series
// of small collections that each copy the whole in-flight set. Measured in the bench's
// `throughput` figure, local, five runs each way: the first round's event-loop p99 read
// 9.9-12.3 ms against 17.5-24.3, and the ratio 0.71-0.89 against 0.62-0.75; S3 (whose rounds
// run after the local ones, young generation grown) unchanged. Resident memory did not grow:
// 71-72 MB for an idle `serve` either way, 47 against 45 MB after 400 MB of short-lived
// garbage, 299-302 against 304-311 MB at the peak of a saturating writer (pages are touched
// only as allocation reaches them).
export const ENGINE_HOST_V8_FLAGS = Object.freeze([
  '--max-semi-space-size=64',
  '--min-semi-space-size=64',
]);

/** Electron's command-line form: V8 flags reach its main process only this way. */
export function electronJsFlags() {
  return `--js-flags=${ENGINE_HOST_V8_FLAGS.join(' ')}`;
}
