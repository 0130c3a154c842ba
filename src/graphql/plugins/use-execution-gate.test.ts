import { describe, expect, it } from 'vitest';
import { useExecutionGate } from './use-execution-gate.ts';

type Execute = (args: unknown) => Promise<unknown>;

/** The execute function the plugin installs around `execute`, as envelop would call it. */
function gated(plugin: ReturnType<typeof useExecutionGate>, execute: Execute): Execute {
  let installed: Execute = execute;
  const onExecute = plugin.onExecute as unknown as (payload: {
    executeFn: Execute;
    setExecuteFn: (fn: Execute) => void;
  }) => void;
  onExecute({ executeFn: execute, setExecuteFn: (fn) => (installed = fn) });
  return installed;
}

describe('useExecutionGate', () => {
  it('runs at most `limit` operations at once, the others in arrival order, and frees slots after failures', async () => {
    const plugin = useExecutionGate(2);
    let running = 0;
    let peak = 0;
    const started: number[] = [];
    const finishers: (() => void)[] = [];
    const operation = (id: number, fail = false) =>
      gated(plugin, async () => {
        running += 1;
        peak = Math.max(peak, running);
        started.push(id);
        await new Promise<void>((resolve) => finishers.push(resolve));
        running -= 1;
        if (fail) throw new Error(`operation ${id} failed`);
        return id;
      })({});

    const results = [operation(1, true), operation(2), operation(3), operation(4), operation(5)].map((p) =>
      p.then(
        (value) => ({ value }),
        (error: Error) => ({ error: error.message }),
      ),
    );
    await new Promise((resolve) => setImmediate(resolve));
    expect(started).toEqual([1, 2]);
    while (finishers.length > 0) {
      finishers.shift()!();
      await new Promise((resolve) => setImmediate(resolve));
    }
    expect(await Promise.all(results)).toEqual([
      { error: 'operation 1 failed' },
      { value: 2 },
      { value: 3 },
      { value: 4 },
      { value: 5 },
    ]);
    expect(started).toEqual([1, 2, 3, 4, 5]);
    expect(peak).toBe(2);
  });
});
