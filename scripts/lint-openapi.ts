/**
 * Lints the OpenAPI document exactly as the REST router serves it, with tools nobody on this project wrote:
 * Spectral's recommended `spectral:oas` rules (0 errors, 0 warnings), Spectral's OWASP API security ruleset
 * (0 errors) and Redocly's `recommended-strict` (0 problems). Run by `npm run lint`; exits non-zero on a finding.
 */
import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildOpenApiDocument } from './generate-client.ts';

const root = fileURLToPath(new URL('..', import.meta.url));
const bin = (name: string) => join(root, 'node_modules/.bin', name);
const ruleset = (name: string) => join(root, 'scripts/openapi-lint', name);

// A fixed place, because the OWASP ruleset's overrides name the document by its path (spectral-owasp.yaml).
const dir = join(root, 'node_modules/.cache/orgraph/openapi-lint');
mkdirSync(dir, { recursive: true });
const file = join(dir, 'openapi.json');
const document = JSON.stringify(await buildOpenApiDocument(), null, 2);
writeFileSync(file, document);

// What the checks see: the document, the rulesets and the locked tool versions. When all three are what passed
// last time in this checkout (CI's second `npm test`), the verdict cannot differ.
const inputs = createHash('sha256')
  .update(document)
  .update(readFileSync(ruleset('spectral-oas.yaml')))
  .update(readFileSync(ruleset('spectral-owasp.yaml')))
  .update(readFileSync(join(root, 'package-lock.json')))
  .digest('hex');
const passedFile = join(dir, 'passed');
if (existsSync(passedFile) && readFileSync(passedFile, 'utf8') === inputs) {
  rmSync(file, { force: true });
  process.stdout.write('ok   Spectral and Redocly: the same document, rulesets and tools passed before\n');
  process.exit(0);
}
rmSync(passedFile, { force: true });

const checks: [string, string, string[]][] = [
  [
    'Spectral spectral:oas recommended',
    bin('spectral'),
    ['lint', file, '--ruleset', ruleset('spectral-oas.yaml'), '--fail-severity', 'warn'],
  ],
  [
    'Spectral OWASP API security',
    bin('spectral'),
    ['lint', file, '--ruleset', ruleset('spectral-owasp.yaml'), '--fail-severity', 'error'],
  ],
  [
    'Redocly recommended-strict',
    bin('redocly'),
    ['lint', file, '--extends', 'recommended-strict', '--format', 'stylish'],
  ],
];
/** Runs one check to its verdict and what it printed. */
function runCheck([, command, args]: (typeof checks)[number]): Promise<{ ok: boolean; output: string }> {
  return new Promise((resolve) => {
    execFile(
      command,
      args,
      {
        encoding: 'utf8',
        timeout: 120_000,
        maxBuffer: 16 * 1024 * 1024,
        env: {
          ...process.env,
          REDOCLY_TELEMETRY: 'off',
          REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true',
          SCARF_ANALYTICS: 'false',
          DO_NOT_TRACK: '1',
        },
      },
      (error, stdout, stderr) =>
        resolve({ ok: !error, output: `${stdout}${stderr}${error?.killed ? 'timed out\n' : ''}` }),
    );
  });
}

let failed = 0;
try {
  // Side by side: each is mostly its own start-up, and they only read the document.
  const results = await Promise.all(checks.map(runCheck));
  results.forEach(({ ok, output }, index) => {
    if (!ok) failed += 1;
    process.stdout.write(`${ok ? 'ok  ' : 'FAIL'} ${checks[index]?.[0]}\n`);
    if (!ok || process.env.VERBOSE) process.stdout.write(`${output}\n`);
  });
  if (!failed) writeFileSync(passedFile, inputs);
} finally {
  rmSync(file, { force: true });
}
process.exit(failed ? 1 : 0);
