import cliProgress from 'cli-progress';
import type { ImportProgress } from '../domain/import/import-records.ts';

export interface ProgressDisplay {
  update(progress: ImportProgress): void;
  stop(): void;
}

/** How far the reading of the import's files has come: bytes read of the files' sizes (null for standard input). */
export interface BytesRead {
  total: number | null;
  read(): number;
}

/** The bytes of an import's files read so far, each file counted once however often it is read. */
export class FileBytes implements BytesRead {
  private readonly counts: (() => number)[][];

  /** `sizes`: each file's size, null for standard input. */
  constructor(private readonly sizes: readonly (number | null)[]) {
    this.counts = sizes.map(() => []);
  }

  get total(): number | null {
    return this.sizes.some((size) => size === null)
      ? null
      : this.sizes.reduce<number>((sum, size) => sum + (size ?? 0), 0);
  }

  /** A reading of file `source`: `count` gives the bytes it has read. */
  track(source: number, count: () => number): void {
    this.counts[source]?.push(count);
  }

  read(): number {
    return this.counts.reduce((sum, counts, source) => {
      const read = counts.reduce((total, count) => total + count(), 0);
      return sum + Math.min(read, this.sizes[source] ?? read);
    }, 0);
  }
}

/** "42 s", "3 min 05 s", "1 h 02 min". */
export function formatDuration(seconds: number): string {
  const whole = Math.max(0, Math.round(seconds));
  if (whole < 60) return `${whole} s`;
  if (whole < 3600) return `${Math.floor(whole / 60)} min ${String(whole % 60).padStart(2, '0')} s`;
  return `${Math.floor(whole / 3600)} h ${String(Math.floor((whole % 3600) / 60)).padStart(2, '0')} min`;
}

/** When the import, its current phase (at `done` of the phase's measure) and its writing began, in ms. */
export interface ProgressTimes {
  now: number;
  importStarted: number;
  phase: { started: number; done: number };
  writingStarted: number | null;
}

/**
 * What the progress line shows: the phase, how far it has come (the files' bytes while reading, the records to
 * store while writing) and the time that leaves at the pace of this phase so far; resolving and refreshing have
 * no measure, so they show none. The rate is records read per second while reading, records stored per second
 * while writing, and none (null) in the other phases.
 */
export function progressFields(
  progress: ImportProgress,
  times: ProgressTimes,
  bytes: BytesRead,
): { phase: string; percent: string; fraction: number; rate: string | null; left: string; done: number } {
  let done = 0;
  let total: number | null = null;
  if (progress.phase === 'reading') {
    done = bytes.read();
    total = bytes.total;
  } else if (progress.phase === 'writing') {
    done = progress.written;
    total = progress.read - progress.rejected;
  }
  const fraction = total === null ? 0 : total === 0 ? 1 : Math.min(1, done / total);
  const elapsed = (times.now - times.phase.started) / 1000;
  const pace = elapsed > 0 ? (done - times.phase.done) / elapsed : 0;
  const left = total !== null && pace > 0 ? formatDuration((total - done) / pace) : '–';
  const perSecond = (records: number, since: number | null) => {
    const seconds = since === null ? 0 : (times.now - since) / 1000;
    return seconds > 0 ? Math.round(records / seconds).toLocaleString('en-GB') : '0';
  };
  const rate =
    progress.phase === 'reading'
      ? perSecond(progress.read, times.importStarted)
      : progress.phase === 'writing'
        ? perSecond(progress.written, times.writingStarted)
        : null;
  return {
    phase: `${progress.phase}${progress.type ? ` ${progress.type}` : ''}`.padEnd(phaseWidth),
    percent: total === null ? '  –' : `${String(Math.floor(fraction * 100)).padStart(3)}%`,
    fraction,
    rate,
    left,
    done,
  };
}

/** The longest phase shown: "writing organisation_ownership". */
const phaseWidth = 30;

/** One line on a terminal (`stream`, stderr), redrawn in place: phase, bar, percentage, counts, rate, time left. */
export function progressBar(
  bytes: BytesRead,
  stream: NodeJS.WritableStream = process.stderr,
  clock: () => number = () => performance.now(),
): ProgressDisplay {
  const bar = new cliProgress.SingleBar(
    {
      stream,
      format:
        ' {phase} {bar} {percent} · {read} read · {written} written · {rejected} rejected · {rate} records/s · {left} left',
      barsize: 20,
      hideCursor: true,
      clearOnComplete: false,
    },
    cliProgress.Presets.shades_classic,
  );
  const started = clock();
  const times: ProgressTimes = {
    now: started,
    importStarted: started,
    phase: { started, done: 0 },
    writingStarted: null,
  };
  let phaseName = 'reading:';
  let rate = '0';
  let stopped = false;
  bar.start(1000, 0, {
    phase: 'reading'.padEnd(phaseWidth),
    percent: '  –',
    read: 0,
    written: 0,
    rejected: 0,
    rate,
    left: '–',
  });
  return {
    update(progress) {
      if (stopped) return;
      times.now = clock();
      const name = `${progress.phase}:${progress.type ?? ''}`;
      // Each phase (each type written) is paced from where it began.
      if (name !== phaseName) {
        phaseName = name;
        times.phase = { started: times.now, done: progressFields(progress, times, bytes).done };
        if (progress.phase === 'writing') times.writingStarted ??= times.now;
      }
      const fields = progressFields(progress, times, bytes);
      rate = fields.rate ?? rate;
      bar.update(Math.round(fields.fraction * 1000), {
        ...fields,
        rate,
        read: progress.read.toLocaleString('en-GB'),
        written: progress.written.toLocaleString('en-GB'),
        rejected: progress.rejected.toLocaleString('en-GB'),
      });
    },
    stop() {
      if (stopped) return;
      stopped = true;
      bar.stop();
    },
  };
}

/**
 * One JSON line on stderr each time the phase changes or a batch is written (in an initial load, as each type
 * begins), for logs and supervisors.
 */
export function progressLines(stream: NodeJS.WritableStream = process.stderr): ProgressDisplay {
  let last = '';
  return {
    update(progress) {
      const key = `${progress.phase}:${progress.type ?? ''}:${progress.written}`;
      if (key === last || (progress.phase === 'reading' && last.startsWith('reading'))) return;
      last = key;
      stream.write(`${JSON.stringify({ progress })}\n`);
    },
    stop() {},
  };
}
