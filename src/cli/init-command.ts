/**
 * `mcp-typegen init`: a starter mcp-typegen.config.json and a starter extension file. Never overwrites:
 * an existing file is an error (exit 2) naming it, and then nothing is written.
 */
import { existsSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import { CONFIG_NAME, findConfig } from '../config/load.js';
import { InputError } from '../errors.js';
import { EXIT, type Out } from './console.js';

export const STARTER_EXTENSION = 'mcp.extension.json';

export function starterConfig(spec: string): string {
  const config = {
    $schema: './node_modules/mcp-typegen/schema/config.schema.json',
    targets: [
      {
        name: 'mcp',
        spec,
        out: 'src/mcp',
        extensions: [STARTER_EXTENSION],
        artifacts: ['client', 'server'],
        importExtension: '.js',
        singleFile: false,
      },
    ],
  };
  return `${JSON.stringify(config, null, 2)}\n`;
}

export function starterExtension(spec: string): string {
  const ext = {
    $schema: './node_modules/mcp-typegen/schema/extension.schema.json',
    extension: 'example/hello',
    version: '0.1.0',
    description:
      'A starter vendor extension: one request the client sends to the server. Rename the vendor prefix and add your methods.',
    targets: [spec],
    methods: {
      'example/hello.greet': {
        kind: 'request',
        direction: 'client->server',
        description: 'Ask the server for a greeting.',
        params: {
          type: 'object',
          properties: { name: { type: 'string', description: 'Who to greet.' } },
          required: ['name'],
          additionalProperties: false,
        },
        result: {
          type: 'object',
          properties: { greeting: { type: 'string' } },
          required: ['greeting'],
        },
      },
    },
  };
  return `${JSON.stringify(ext, null, 2)}\n`;
}

export async function runInit(cwd: string, spec: string, out: Out): Promise<number> {
  // In a subdirectory of a configured project, `generate` would find that config: a second one here
  // would silently shadow it, so point at the existing one instead.
  const existing = findConfig(cwd);
  if (existing && dirname(existing) !== resolve(cwd)) {
    throw new InputError(
      existing,
      undefined,
      `already configures ${resolve(cwd)} (found upward from it): init wrote nothing`,
      'add a target to that file, or run init in a directory outside that project',
    );
  }
  const files = [
    { path: join(cwd, CONFIG_NAME), text: starterConfig(spec) },
    { path: join(cwd, STARTER_EXTENSION), text: starterExtension(spec) },
  ];
  for (const f of files) {
    if (existsSync(f.path))
      throw new InputError(
        f.path,
        undefined,
        'already exists: init never overwrites a file',
        'move it away, or edit it instead of running init',
      );
  }
  for (const f of files) {
    await writeFile(f.path, f.text, { flag: 'wx' });
    out.info(`wrote ${f.path}`);
  }
  out.info('next: npx mcp-typegen generate');
  return EXIT.ok;
}
