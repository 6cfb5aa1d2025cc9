/**
 * The 2026-07-28 example server's skills (SEP-2640, `--ext io.modelcontextprotocol/skills`): one skill,
 * `skill://demo/`, with its SKILL.md and a reference file, served by `skills/list`, `skills/get`,
 * `resources/directory/read` (the `directoryRead` setting) and, for the files, `resources/read`.
 */
import { createHash } from 'node:crypto';
import {
  ERROR_CODES,
  ProtocolError,
  type McpServerHandlers,
  type Resource,
  type Skill,
} from '../.generated/2026-07-28/index.js';

export const SKILLS = 'io.modelcontextprotocol/skills';

const FRONTMATTER = { name: 'demo', description: 'A demo skill for the conformance suite' };
const FILES: Record<string, string> = {
  'SKILL.md': `---\nname: ${FRONTMATTER.name}\ndescription: ${FRONTMATTER.description}\n---\n\nRead references/GUIDE.md first.\n`,
  'references/GUIDE.md': '# Guide\n\nStep one.\n',
};
const ROOT = 'skill://demo';
const SKILL_MD = `${ROOT}/SKILL.md`;
const DIRECTORY = 'inode/directory';

const digest = (text: string) => `sha256:${createHash('sha256').update(text).digest('hex')}`;

const SKILL: Skill = {
  uri: SKILL_MD,
  frontmatter: FRONTMATTER,
  resources: Object.entries(FILES).map(([path, text]) => ({
    uri: `${ROOT}/${path}`,
    digest: digest(text),
    size: Buffer.byteLength(text),
  })),
};

/** SKILL.md as `resources/list` lists it: named and described by its frontmatter. */
export const SKILL_RESOURCES: Resource[] = [
  { uri: SKILL_MD, name: FRONTMATTER.name, description: FRONTMATTER.description, mimeType: 'text/markdown' },
];

/** A skill file's contents for `resources/read`, or undefined when `uri` is none of them. */
export function readSkillFile(uri: string): { uri: string; mimeType: string; text: string } | undefined {
  const path = uri.startsWith(`${ROOT}/`) ? uri.slice(ROOT.length + 1) : undefined;
  const text = path === undefined ? undefined : FILES[path];
  return text === undefined ? undefined : { uri, mimeType: 'text/markdown', text };
}

/** The direct children of a directory of the skill: its files and subdirectories. */
function children(uri: string): { uri: string; name: string; mimeType: string }[] | undefined {
  const prefix = `${uri}/`;
  const below = Object.keys(FILES)
    .map((path) => `${ROOT}/${path}`)
    .filter((file) => file.startsWith(prefix));
  if (below.length === 0) return undefined;
  const names = new Set(below.map((file) => file.slice(prefix.length).split('/')[0]!));
  return [...names].sort().map((name) => {
    const child = `${prefix}${name}`;
    const isFile = below.includes(child);
    return { uri: child, name, mimeType: isFile ? 'text/markdown' : DIRECTORY };
  });
}

export const skillHandlers: Pick<McpServerHandlers, 'skills/list' | 'skills/get' | 'resources/directory/read'> = {
  'skills/list': () => ({ skills: [SKILL] }),
  'skills/get': ({ uri }) => {
    if (uri !== SKILL.uri) throw new ProtocolError(ERROR_CODES.InvalidParamsError, `No skill at ${uri}`, { uri });
    return { skill: SKILL };
  },
  'resources/directory/read': ({ uri }) => {
    const resources = children(uri.replace(/\/$/, ''));
    if (resources === undefined) {
      throw new ProtocolError(ERROR_CODES.InvalidParamsError, `${uri} is not a directory`, { uri });
    }
    return { resources };
  },
};
