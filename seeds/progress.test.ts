import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { renderProgressBar } from './progress.ts';

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
