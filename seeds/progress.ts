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
