/**
 * RFC 6901 JSON pointers: the one place that escapes, unescapes, builds and resolves them. Pointers in
 * `$ref`s are URI fragments, so their tokens are percent-decoded before they are unescaped.
 */

/** Escape one reference token (`~` → `~0`, `/` → `~1`). */
export function escapePointerToken(token: string): string {
  return token.replace(/~/g, '~0').replace(/\//g, '~1');
}

/** Undo escapePointerToken. */
export function unescapePointerToken(token: string): string {
  return token.replace(/~1/g, '/').replace(/~0/g, '~');
}

/** A token as written in a `$ref` fragment: percent-decoded, then unescaped. */
export function decodeFragmentToken(raw: string): string {
  return unescapePointerToken(decodeURIComponent(raw));
}

/** True when every percent-escape of a `$ref` fragment decodes (`%` + two hex digits, forming UTF-8). */
export function isDecodableFragment(fragment: string): boolean {
  try {
    decodeURIComponent(fragment);
    return true;
  } catch {
    return false;
  }
}

/** Build a pointer from tokens. */
export function pointer(...tokens: (string | number)[]): string {
  return tokens.map((t) => '/' + escapePointerToken(String(t))).join('');
}

/** The pointer of a definition, e.g. `/$defs/Tool`. */
export function definitionPointer(defsKeyword: string, name: string): string {
  return `/${defsKeyword}/${escapePointerToken(name)}`;
}

/** Resolve a pointer (URI-fragment decoded) in a document; undefined when it leads nowhere. */
export function resolvePointer(root: unknown, at: string): unknown {
  if (at === '') return root;
  if (!at.startsWith('/')) return undefined;
  let node: unknown = root;
  for (const raw of at.slice(1).split('/')) {
    const token = decodeFragmentToken(raw);
    if (Array.isArray(node)) {
      if (!/^\d+$/.test(token)) return undefined;
      node = node[Number(token)];
    } else if (typeof node === 'object' && node !== null && Object.hasOwn(node, token)) {
      node = (node as Record<string, unknown>)[token];
    } else {
      return undefined;
    }
    if (node === undefined) return undefined;
  }
  return node;
}
