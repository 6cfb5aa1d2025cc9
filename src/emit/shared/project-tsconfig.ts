/**
 * What the user's own tsconfig.json does with the generated JavaScript modules (validators.js, sdk.js,
 * tool-validators.js): a tsc build that emits without `allowJs` leaves them out of its output, and the program
 * then fails at run time (ERR_MODULE_NOT_FOUND) after a build that exited 0. `init` reads this to choose the
 * `jsModules` shape; `generate` warns when the chosen shape would be dropped.
 */
import { dirname, isAbsolute, relative, resolve, sep } from 'node:path';
import { tsMorph } from './ts-project.js';

type Parsed = NonNullable<ReturnType<ReturnType<typeof tsMorph>['ts']['getParsedCommandLineOfConfigFile']>>;

/** The nearest tsconfig.json at or above `dir`, parsed (its `extends` followed), when a tsc build with it would drop .js files. */
function droppingTsconfig(dir: string): { file: string; parsed: Parsed } | null {
  const { ts } = tsMorph();
  const file = ts.findConfigFile(resolve(dir), (path) => ts.sys.fileExists(path), 'tsconfig.json');
  if (file === undefined) return null;
  const parsed = ts.getParsedCommandLineOfConfigFile(file, undefined, {
    ...ts.sys,
    // A broken tsconfig is the user's compiler's to report, not ours.
    onUnRecoverableConfigFileDiagnostic: () => undefined,
  });
  if (parsed === undefined) return null;
  const { noEmit, emitDeclarationOnly, allowJs } = parsed.options;
  return noEmit === true || emitDeclarationOnly === true || allowJs === true ? null : { file, parsed };
}

/** The nearest tsconfig.json at or above `dir` when a tsc build with it would emit .ts files but drop .js ones. */
export function tsconfigDroppingJavaScript(dir: string): string | null {
  return droppingTsconfig(dir)?.file ?? null;
}

/**
 * The same, for an output directory the tsconfig compiles: its `include` patterns reach `outDir` (the
 * directory may not exist yet, so the patterns' directories are compared, not the files found).
 */
export function buildDroppingJavaScript(outDir: string): string | null {
  const found = droppingTsconfig(outDir);
  if (found === null) return null;
  const { ts } = tsMorph();
  const out = resolve(outDir);
  const reached = Object.entries(found.parsed.wildcardDirectories ?? {}).some(([directory, flags]) => {
    const path = relative(resolve(directory), out);
    const recursive = (flags & ts.WatchDirectoryFlags.Recursive) !== 0;
    return path === '' || (recursive && !path.startsWith('..') && !isAbsolute(path));
  });
  const listed = found.parsed.fileNames.some((name) => dirname(resolve(name)) === out);
  return (reached && !excluded(found, out)) || listed ? found.file : null;
}

const WILDCARDS: Record<string, string> = { '**/': '(?:[^/]+/)*', '**': '.*', '*': '[^/]*', '?': '[^/]' };

/**
 * Whether the tsconfig's `exclude` patterns (resolved against its directory; tsc's wildcards `**`, `*`, `?`)
 * cover `out` or a directory above it, as tsc skips a directory an exclude pattern matches.
 */
function excluded(found: { file: string; parsed: Parsed }, out: string): boolean {
  const raw = found.parsed.raw as { exclude?: unknown; compilerOptions?: { outDir?: unknown } } | undefined;
  const base = dirname(found.file);
  const specs = Array.isArray(raw?.exclude)
    ? raw.exclude.filter((spec): spec is string => typeof spec === 'string')
    : [
        'node_modules',
        'bower_components',
        'jspm_packages',
        ...(found.parsed.options.outDir ? [found.parsed.options.outDir] : []),
      ];
  const target = out.split(sep).join('/');
  return specs.some((spec) => {
    const pattern = resolve(base, spec)
      .split(sep)
      .join('/')
      .replace(/\*\*\/|\*\*$|\*|\?|[.+^${}()|[\]\\]/g, (token) => WILDCARDS[token] ?? `\\${token}`);
    return new RegExp(`^${pattern}(?:/|$)`).test(target);
  });
}
