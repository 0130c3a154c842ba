import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import type { ImportProgress } from '../domain/import/import-records.ts';
import { FileBytes, formatDuration, progressBar, progressFields, progressLines } from './import-progress.ts';

const bytesAt = (read: number, total: number | null) => ({ total, read: () => read });

describe('import progress', () => {
  it('while reading: the share of the files read, records read per second, and the time left at that pace', () => {
    const fields = progressFields(
      { phase: 'reading', read: 300, written: 0, rejected: 0 },
      { now: 10_000, importStarted: 0, phase: { started: 0, done: 0 }, writingStarted: null },
      bytesAt(2_500, 10_000),
    );
    expect(fields).toMatchObject({ percent: ' 25%', fraction: 0.25, rate: '30', left: '30 s' });
  });

  it('while writing: the share of the valid records stored, paced from where the phase began', () => {
    const fields = progressFields(
      { phase: 'writing', type: 'organisation', read: 1_200, written: 500, rejected: 200 },
      { now: 60_000, importStarted: 0, phase: { started: 40_000, done: 100 }, writingStarted: 35_000 },
      bytesAt(0, 0),
    );
    // 400 stored in the 20 s of this type, 500 left: 25 s; 500 of 1,000 valid records; 500 in 25 s of writing.
    expect(fields).toMatchObject({ percent: ' 50%', rate: '20', left: '25 s' });
    expect(fields.phase.trim()).toBe('writing organisation');
  });

  it('from standard input, or while resolving, there is no share to show and no time left', () => {
    const reading = progressFields(
      { phase: 'reading', read: 10, written: 0, rejected: 0 },
      { now: 1_000, importStarted: 0, phase: { started: 0, done: 0 }, writingStarted: null },
      bytesAt(500, null),
    );
    expect([reading.percent, reading.left]).toEqual(['  –', '–']);
    const resolving = progressFields(
      { phase: 'resolving', read: 10, written: 0, rejected: 0 },
      { now: 1_000, importStarted: 0, phase: { started: 0, done: 0 }, writingStarted: null },
      bytesAt(500, 500),
    );
    expect([resolving.percent, resolving.left, resolving.rate]).toEqual(['  –', '–', null]);
  });

  it('counts each file once, however often it is read, and knows no total with standard input among them', () => {
    const bytes = new FileBytes([100, 50]);
    bytes.track(0, () => 100);
    bytes.track(0, () => 40); // read again for the rejects
    bytes.track(1, () => 20);
    expect([bytes.total, bytes.read()]).toEqual([150, 120]);
    expect(new FileBytes([100, null]).total).toBeNull();
  });

  it('writes durations as a reader says them', () => {
    expect([formatDuration(4.4), formatDuration(185), formatDuration(3_725)]).toEqual([
      '4 s',
      '3 min 05 s',
      '1 h 02 min',
    ]);
  });

  /** The frames `progressBar` drew on a simulated terminal for `updates` (at their clock time, in ms). */
  function drawn(updates: [number, ImportProgress][]): string[] {
    const terminal = Object.assign(new PassThrough(), { isTTY: true, columns: 200 });
    let output = '';
    terminal.on('data', (chunk: Buffer) => {
      output += chunk.toString();
    });
    let now = 0;
    const display = progressBar(bytesAt(2_500, 10_000), terminal, () => now);
    for (const [at, progress] of updates) {
      now = at;
      display.update(progress);
    }
    display.stop();
    // The terminal's control sequences (ESC [ n G, ESC [ n K) redraw the line: the frames lie between them.
    return output
      .replaceAll(String.fromCharCode(27), '')
      .split(/\r|\[\d*[GK]/)
      .filter((part) => part.includes('read ·'));
  }

  it('draws one line on a terminal with the phase, percentage, counts, rate and time left', () => {
    const frames = drawn([[10_000, { phase: 'reading', read: 3_000, written: 0, rejected: 4 }]]);
    expect(frames.at(-1)).toMatch(
      /^ reading\s+\S{20} {2}25% · 3,000 read · 0 written · 4 rejected · 300 records\/s · 30 s left/,
    );
  });

  it('keeps the last rate through a phase without a measure, and shows no time left there', () => {
    const frames = drawn([
      [10_000, { phase: 'reading', read: 3_000, written: 0, rejected: 4 }],
      [12_000, { phase: 'resolving', read: 3_000, written: 0, rejected: 4 }],
    ]);
    expect(frames.at(-1)).toMatch(
      /^ resolving\s+\S{20} {3}– · 3,000 read · 0 written · 4 rejected · 300 records\/s · – left/,
    );
  });

  it('as lines: one JSON line per phase or batch written, not one per chunk read', () => {
    const stream = new PassThrough();
    const lines = progressLines(stream);
    lines.update({ phase: 'reading', read: 10, written: 0, rejected: 0 });
    lines.update({ phase: 'reading', read: 20, written: 0, rejected: 0 });
    lines.update({ phase: 'writing', type: 'event', read: 20, written: 0, rejected: 0 });
    lines.update({ phase: 'writing', type: 'event', read: 20, written: 20, rejected: 0 });
    expect(
      String(stream.read())
        .trim()
        .split('\n')
        .map((line) => JSON.parse(line).progress.phase),
    ).toEqual(['reading', 'writing', 'writing']);
  });
});
