import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { renderProgressBar, renderProgressLines } from './progress.ts';

describe('renderProgressBar', () => {
  it('draws one bar per phase and stops once every announced phase is done', async () => {
    const stream = Object.assign(new PassThrough(), {
      isTTY: true,
      columns: 100,
      cursorTo() {},
      moveCursor() {},
      clearLine() {},
      clearScreenDown() {},
    });
    let output = '';
    stream.on('data', (chunk: Buffer) => {
      output += chunk.toString();
    });
    const onProgress = renderProgressBar(stream);
    onProgress({ table: 'organisations', done: 0, total: 10 });
    onProgress({ table: 'profiles', done: 0, total: 5 });
    onProgress({ table: 'organisations', done: 10, total: 10 });
    onProgress({ table: 'profiles', done: 5, total: 5 });
    // Calls after the display stopped are ignored.
    onProgress({ table: 'profiles', done: 5, total: 5 });
    await new Promise((resolve) => setImmediate(resolve));
    expect(output).toContain('organisations');
    expect(output).toContain('profiles');
    expect(output).toContain('100%');
  });
});

describe('renderProgressLines', () => {
  it('writes a line per tenth of a phase and at its end, timing each phase from the end of the one before', () => {
    let output = '';
    const stream = new PassThrough();
    stream.on('data', (chunk: Buffer) => {
      output += chunk.toString();
    });
    let now = 0;
    const onProgress = renderProgressLines(stream, () => now);
    onProgress({ table: 'organisations', done: 0, total: 100 });
    onProgress({ table: 'profiles', done: 0, total: 10 });
    for (let done = 5; done <= 100; done += 5) {
      now += 1000;
      onProgress({ table: 'organisations', done, total: 100 });
    }
    now += 4000;
    onProgress({ table: 'profiles', done: 10, total: 10 });
    const written = output.trim().split('\n');
    expect(written).toHaveLength(11);
    expect(written[0]).toBe('seed organisations   10% 10/100 · 2.0 s in phase · 2.0 s in all');
    expect(written[9]).toBe('seed organisations  100% 100/100 · 20.0 s in phase · 20.0 s in all');
    expect(written[10]).toBe('seed profiles       100% 10/10 · 4.0 s in phase · 24.0 s in all');
  });
});
