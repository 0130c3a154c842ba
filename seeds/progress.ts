import cliProgress from 'cli-progress';
import type { SeedProgress } from './seed-database.ts';

/**
 * A progress display for `orgraph seed` on a terminal: one bar per phase, on stderr so stdout stays clean for
 * the report. The seeder announces every phase at zero first, so the display knows when the last one is done
 * and stops itself.
 */
export function renderProgressBar(
  stream: NodeJS.WritableStream = process.stderr,
): (progress: SeedProgress) => void {
  const multibar = new cliProgress.MultiBar(
    {
      stream,
      format: ' {phase} |{bar}| {percentage}% · {value}/{total}',
      hideCursor: true,
      clearOnComplete: false,
      autopadding: true,
    },
    cliProgress.Presets.shades_classic,
  );
  const bars = new Map<string, { bar: cliProgress.SingleBar; done: number; total: number }>();
  const width = 24;
  let stopped = false;
  return (progress) => {
    if (stopped) return;
    let entry = bars.get(progress.table);
    if (!entry) {
      const bar = multibar.create(progress.total, 0, { phase: progress.table.padEnd(width) });
      entry = { bar, done: 0, total: progress.total };
      bars.set(progress.table, entry);
    }
    entry.done = progress.done;
    entry.total = progress.total;
    entry.bar.setTotal(progress.total);
    entry.bar.update(progress.done);
    if ([...bars.values()].every((e) => e.done >= e.total)) {
      stopped = true;
      multibar.stop();
    }
  };
}

/**
 * Progress for `orgraph seed` when stderr is not a terminal (a log file, a CI job): one line each time a phase
 * passes a tenth of its total and when it ends, with the seconds since the phase started (when the one before it
 * ended) and since the seed did.
 */
export function renderProgressLines(
  stream: NodeJS.WritableStream = process.stderr,
  clock: () => number = () => performance.now(),
): (progress: SeedProgress) => void {
  const started = clock();
  let lastEnded = started;
  const phases = new Map<string, { started: number; tenths: number }>();
  return (progress) => {
    if (progress.done === 0) return;
    let phase = phases.get(progress.table);
    if (!phase) {
      phase = { started: lastEnded, tenths: 0 };
      phases.set(progress.table, phase);
    }
    const tenths = progress.total > 0 ? Math.min(10, Math.floor((progress.done * 10) / progress.total)) : 10;
    if (tenths <= phase.tenths) return;
    phase.tenths = tenths;
    const now = clock();
    if (tenths === 10) lastEnded = now;
    stream.write(
      `seed ${progress.table.padEnd(14)} ${String(tenths * 10).padStart(3)}% ${progress.done}/${progress.total}` +
        ` · ${((now - phase.started) / 1000).toFixed(1)} s in phase · ${((now - started) / 1000).toFixed(1)} s in all\n`,
    );
  };
}
