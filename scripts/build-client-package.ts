/**
 * Builds `packages/client` (`@orgraph/client`) from `src/client`: JavaScript bundled by esbuild, so that the package
 * has no dependencies to install (openapi-fetch and the two functions of graphql it calls are inside), and type
 * declarations emitted by the TypeScript compiler. The declarations name graphql's document and error types; those
 * imports are pointed at the package's own structural copies (`graphql-types.d.ts`), and the build fails if any other
 * import of another package is left in a declaration, since the package could not resolve it.
 *
 * Run by the package's `prepack` (so `npm pack packages/client` builds first) or `npm run build` in that folder.
 */
import {
  copyFileSync,
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import ts from 'typescript';

const root = fileURLToPath(new URL('..', import.meta.url));
const source = join(root, 'src/client');
const packageDir = join(root, 'packages/client');
const out = join(packageDir, 'dist');

/** The JavaScript entry points and the subpath each one is exported as (see packages/client/package.json). */
const entries = {
  index: join(source, 'index.ts'),
  graphql: join(source, 'graphql.gen.ts'),
  'graphql-setup': join(source, 'graphql-setup/schema-setup.gen.ts'),
};

/** Packages whose types the declarations may name: each is answered by the package's own `graphql-types.d.ts`. */
const typeOnlyPackages = new Set(['graphql', '@graphql-typed-document-node/core']);

rmSync(out, { recursive: true, force: true });
mkdirSync(out, { recursive: true });

const { metafile } = await build({
  metafile: true,
  entryPoints: entries,
  outdir: out,
  bundle: true,
  format: 'esm',
  platform: 'neutral',
  mainFields: ['module', 'main'],
  target: 'es2022',
  legalComments: 'inline',
  logLevel: 'warning',
});

/** The bundled packages keep their licences: each one's licence file, in one notice beside the code. */
const bundled = new Set<string>();
for (const input of Object.keys(metafile.inputs)) {
  const match = input.match(/node_modules\/((?:@[^/]+\/)?[^/]+)\//);
  if (match?.[1]) bundled.add(match[1]);
}
const notices = [...bundled].sort().map((name) => {
  const directory = join(root, 'node_modules', name);
  const { version } = JSON.parse(readFileSync(join(directory, 'package.json'), 'utf8')) as {
    version: string;
  };
  const licence = readdirSync(directory).find((file) => /^licen[cs]e/i.test(file));
  if (!licence || !existsSync(join(directory, licence)))
    throw new Error(`${name} is bundled but has no licence file`);
  return `${name}@${version}\n\n${readFileSync(join(directory, licence), 'utf8').trim()}\n`;
});
writeFileSync(
  join(out, 'THIRD-PARTY-LICENSES.txt'),
  `The JavaScript of this package includes code of these packages, under their licences:\n\n${notices.join('\n')}`,
);

const typesFile = join(out, 'graphql-types.d.ts');
copyFileSync(join(packageDir, 'graphql-types.d.ts'), typesFile);

/** Rewrites one declaration file's module specifiers, and refuses any it cannot resolve inside the package. */
function rewriteSpecifiers(file: string, text: string): string {
  return text.replace(
    /(from\s+|import\()(['"])([^'"]+)\2/g,
    (_whole, lead: string, quote: string, specifier: string) => {
      let target = specifier;
      if (specifier.startsWith('.')) target = specifier.replace(/\.ts$/, '.js');
      else if (typeOnlyPackages.has(specifier)) {
        target = relative(dirname(file), typesFile).replace(/\.d\.ts$/, '.js');
        if (!target.startsWith('.')) target = `./${target}`;
      } else throw new Error(`${relative(root, file)} imports ${specifier}, which the package does not ship`);
      return `${lead}${quote}${target}${quote}`;
    },
  );
}

const options: ts.CompilerOptions = {
  target: ts.ScriptTarget.ES2023,
  lib: ['lib.es2023.d.ts', 'lib.dom.d.ts'],
  module: ts.ModuleKind.NodeNext,
  moduleResolution: ts.ModuleResolutionKind.NodeNext,
  strict: true,
  noUncheckedIndexedAccess: true,
  allowImportingTsExtensions: true,
  verbatimModuleSyntax: true,
  skipLibCheck: true,
  types: [],
  declaration: true,
  emitDeclarationOnly: true,
  rootDir: source,
  outDir: out,
};
const program = ts.createProgram(Object.values(entries), options);
const emitted: string[] = [];
const result = program.emit(undefined, (file, text) => {
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, rewriteSpecifiers(file, text));
  emitted.push(relative(out, file));
});
const diagnostics = [...ts.getPreEmitDiagnostics(program), ...result.diagnostics];
if (diagnostics.length > 0) {
  const host: ts.FormatDiagnosticsHost = {
    getCanonicalFileName: (name) => name,
    getCurrentDirectory: () => root,
    getNewLine: () => '\n',
  };
  throw new Error(ts.formatDiagnosticsWithColorAndContext(diagnostics, host));
}
console.log(
  `@orgraph/client built: ${Object.keys(entries).length} modules, ${emitted.length} declaration files`,
);
