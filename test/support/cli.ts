import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';

const cliPath = fileURLToPath(new URL('../../bin/orgraph.js', import.meta.url));

/** Runs `orgraph <args>` to completion in its own process. */
export async function runCli(args: string[], env: NodeJS.ProcessEnv) {
  const { stdout, stderr } = await promisify(execFile)(process.execPath, [cliPath, ...args], {
    env: { ...process.env, ...env },
  });
  return { stdout, stderr };
}

/** Starts `orgraph <args>` and resolves with its URL once it logs that it listens. */
export function startCli(
  args: string[],
  env: NodeJS.ProcessEnv,
): Promise<{ child: ChildProcess; url: string }> {
  const child = spawn(process.execPath, [cliPath, ...args], {
    env: { ...process.env, PORT: '0', HOST: '127.0.0.1', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  // Logs go to stdout; keep draining it so a chatty child never blocks on a full pipe.
  child.stdout?.resume();
  return new Promise((resolve, reject) => {
    let log = '';
    child.stderr?.on('data', (chunk: Buffer) => {
      log += chunk.toString();
      const match = log.match(/listening on (http:\/\/\S+?) /);
      if (match?.[1]) resolve({ child, url: match[1] });
    });
    child.once('exit', (code) => reject(new Error(`orgraph exited with ${code} before listening:\n${log}`)));
  });
}

export function exitCode(child: ChildProcess): Promise<number | null> {
  if (child.exitCode !== null) return Promise.resolve(child.exitCode);
  return new Promise((resolve) => child.once('exit', (code) => resolve(code)));
}
