// Fallback for the diff row when the CLI has no `diff` command: the core diffModels after loading both
// schemas, in a fresh process. Usage: node diff-core.mjs <repoRoot> <old version> <new version>
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

const [root, oldV, newV] = process.argv.slice(2);
const load = async (p) => import(pathToFileURL(join(root, 'dist', 'src', p)).href);
const { loadSchema } = await load('load/schema.js');
const { buildModel } = await load('model/build.js');
const { diffModels, renderReport } = await load('diff/index.js');
const model = async (spec) => buildModel(await loadSchema({ spec, cwd: root }));
const report = diffModels(await model(oldV), await model(newV), { oldName: oldV, newName: newV });
process.stdout.write(renderReport(report, 'text'));
