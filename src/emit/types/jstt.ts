/**
 * json-schema-to-typescript through its public API: `compile(schema, name, options)` for one normalised
 * definition (normalize.ts has turned every reference into a type name and refused what JSTT's own rules
 * would refuse, with a pointer), unformatted: prettier formats types.ts with the other files.
 */
import { compile, type Options } from 'json-schema-to-typescript';

/**
 * One compiler per option set: `compile(schema, name)` resolves to the declaration's text. Declarations are
 * remembered by (name, schema) for the life of the process: watch mode recompiles only the definitions an
 * edit changed, and `generate --all` compiles a definition the versions share once.
 */
export function jsttCompiler(options: Partial<Options>): (schema: object, name: string) => Promise<string> {
  const known = new Map<string, Promise<string>>();
  return (schema, name) => {
    const key = `${name}\0${JSON.stringify(schema)}`;
    let declaration = known.get(key);
    if (declaration === undefined) {
      if (known.size >= KNOWN_LIMIT) known.clear();
      declaration = withoutVerbose(() => compile(schema, name, options));
      known.set(key, declaration);
      declaration.catch(() => known.delete(key));
    }
    return declaration;
  };
}

/** Enough for every definition of every known version with room to spare; a synthetic giant starts over. */
const KNOWN_LIMIT = 20_000;

/** How many JSTT calls are running, and the VERBOSE they hid (see withoutVerbose). */
let hiding = 0;
let hiddenVerbose: string | undefined;

/**
 * Runs a JSTT call with VERBOSE unset: JSTT prints debug dumps of every type to stdout whenever that variable
 * is set (CI systems often set it), tens of thousands of lines that are not ours to print. Calls overlap
 * (compile() awaits), so the variable comes back when the last one ends.
 */
async function withoutVerbose<T>(run: () => Promise<T>): Promise<T> {
  if (hiding++ === 0) {
    hiddenVerbose = process.env['VERBOSE'];
    if (hiddenVerbose !== undefined) delete process.env['VERBOSE'];
  }
  try {
    return await run();
  } finally {
    if (--hiding === 0 && hiddenVerbose !== undefined) process.env['VERBOSE'] = hiddenVerbose;
  }
}
