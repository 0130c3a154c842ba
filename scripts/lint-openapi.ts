/**
 * Lints the OpenAPI document exactly as the REST router serves it, with tools nobody on this project wrote:
 * Spectral's recommended `spectral:oas` rules (0 errors, 0 warnings), Spectral's OWASP API security ruleset
 * (0 errors) and Redocly's `recommended-strict` (0 problems). Run by `npm run lint`; exits non-zero on a finding.
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
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
writeFileSync(file, JSON.stringify(await buildOpenApiDocument(), null, 2));

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
let failed = 0;
try {
  for (const [name, command, args] of checks) {
    const result = spawnSync(command, args, {
      encoding: 'utf8',
      timeout: 120_000,
      env: {
        ...process.env,
        REDOCLY_TELEMETRY: 'off',
        REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true',
        SCARF_ANALYTICS: 'false',
        DO_NOT_TRACK: '1',
      },
    });
    const ok = result.status === 0;
    if (!ok) failed += 1;
    process.stdout.write(`${ok ? 'ok  ' : 'FAIL'} ${name}\n`);
    if (!ok || process.env.VERBOSE) process.stdout.write(`${result.stdout}${result.stderr}\n`);
  }
} finally {
  rmSync(file, { force: true });
}
process.exit(failed ? 1 : 0);
