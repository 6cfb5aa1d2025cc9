/**
 * A skills host's integrity rules (SEP-2640): a skill's files are read only when the skill is loaded, and
 * each is checked against its entry before it is used — its size, its SHA-256 digest and, for SKILL.md, its
 * YAML frontmatter field by field. A file that fails any check stops the load: nothing of it is used, and no
 * further file of that skill is read.
 */
import { createHash } from 'node:crypto';
import { isDeepStrictEqual } from 'node:util';
import { parse } from 'yaml';
import type { ReadResourceResult, Skill } from '../.generated/2026-07-28/index.js';

type Contents = ReadResourceResult['contents'];

/** The bytes of a text or blob resource content. */
function bytesOf(contents: Contents): Buffer {
  const [first] = contents;
  if (!first) throw new Error('the resource has no contents');
  return 'text' in first ? Buffer.from(first.text, 'utf8') : Buffer.from(first.blob, 'base64');
}

/** The YAML frontmatter of a SKILL.md, parsed (the block between its leading `---` lines). */
function frontmatterOf(markdown: string): unknown {
  const match = /^---\r?\n([\s\S]*?)\r?\n---[ \t]*(?:\r?\n|$)/.exec(markdown.replace(/^\uFEFF/, ''));
  if (!match) throw new Error('SKILL.md has no frontmatter');
  return parse(match[1]!);
}

/**
 * Loads a skill: reads SKILL.md first, then every other file listed, verifying each; resolves to the files by
 * URI, or rejects on the first that fails verification.
 */
export async function loadSkill(skill: Skill, read: (uri: string) => Promise<Contents>): Promise<Map<string, Buffer>> {
  if (!Array.isArray(skill.resources))
    throw new Error(`${skill.uri}: its files are dynamic; nothing to verify against`);
  const entries = [...skill.resources].sort((a, b) => Number(b.uri === skill.uri) - Number(a.uri === skill.uri));
  const files = new Map<string, Buffer>();
  for (const entry of entries) {
    const bytes = bytesOf(await read(entry.uri));
    if (bytes.length !== entry.size)
      throw new Error(`${entry.uri}: ${bytes.length} bytes, the entry says ${entry.size}`);
    const digest = `sha256:${createHash('sha256').update(bytes).digest('hex')}`;
    if (digest !== entry.digest) throw new Error(`${entry.uri}: digest ${digest}, the entry says ${entry.digest}`);
    if (entry.uri === skill.uri && !isDeepStrictEqual(frontmatterOf(bytes.toString('utf8')), skill.frontmatter)) {
      throw new Error(`${entry.uri}: its frontmatter differs from the entry's`);
    }
    files.set(entry.uri, bytes);
  }
  return files;
}
