/**
 * sdk-v1.ts imports from sdk.js only the types its code uses: for a schema with no call the facade types
 * (OptionsOf) are unused, and a project under noUnusedLocals (the strictest settings) refused the file.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { generate } from '../../src/generate.js';
import { FIXTURE_SCHEMAS, ROOT, TSC, run, tempDir, writeFiles } from '../helpers/generate.js';

it('the SDK v1 adapter of a schema without calls compiles under noUnusedLocals', async () => {
  const dir = tempDir('sdk-v1-unused');
  const { files } = await generate({
    schema: join(FIXTURE_SCHEMAS, 'minimal.schema.json'),
    outDir: join(dir, 'src'),
    artifacts: ['sdk', 'sdk-v1'],
    format: false,
  });
  writeFiles(join(dir, 'src'), files);
  writeFileSync(join(dir, 'package.json'), '{ "type": "module" }\n');
  const compilerOptions = { types: ['node'], typeRoots: [join(ROOT, 'node_modules', '@types')], skipLibCheck: true };
  writeFileSync(
    join(dir, 'tsconfig.json'),
    JSON.stringify({ extends: join(ROOT, 'tsconfig.strictest.json'), compilerOptions, include: ['src'] }),
  );
  const result = await run(process.execPath, [TSC, '-p', join(dir, 'tsconfig.json'), '--pretty', 'false'], {
    cwd: dir,
  });
  expect(result.stdout + result.stderr).toBe('');
  expect(result.code).toBe(0);
}, 120_000);
