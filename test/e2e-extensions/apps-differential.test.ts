/**
 * Issue 35, item 6: the validators generated from schema/extensions/apps.extension.json accept every MCP
 * Apps message ext-apps 2.0.4's own zod schemas accept, on a shared corpus (test/fixtures/ext-e2e/apps-corpus.ts,
 * at least 50 messages: every host context field, every containerDimensions shape, extra keys zod lets
 * through). And an additional property that the schema refuses is reported with its own pointer.
 */
import * as apps from '@modelcontextprotocol/ext-apps';
import { beforeAll, describe, expect, it } from 'vitest';
import { generated } from '../helpers/generate.js';
import { CORPUS, type CorpusEntry } from '../fixtures/ext-e2e/apps-corpus.js';
import { importValidators } from './helpers.js';

type Zod = { safeParse(value: unknown): { success: boolean; error?: unknown } };
type Validator = ((value: unknown) => boolean) & { errors?: unknown };
let validators: {
  paramsValidators: Record<string, Validator>;
  resultValidators: Record<string, Validator>;
  resultsByMethod: Record<string, string[]>;
};

/** ext-apps' zod schema of a method's whole message, and of its result. */
function zodOf(entry: CorpusEntry): Zod {
  const schemas = Object.entries(apps).filter(([name]) => name.endsWith('Schema')) as [string, Zod & Json][];
  const message = schemas.find(([, s]) => s.shape?.method?.value === entry.method);
  if (message === undefined) throw new Error(`no ext-apps schema for ${entry.method}`);
  if (!('result' in entry)) return message[1];
  const resultName = message[0].replace(/(Request|Notification)Schema$/, 'ResultSchema');
  const result = schemas.find(([name]) => name === resultName);
  if (result === undefined) throw new Error(`no ext-apps result schema for ${entry.method}`);
  return result[1];
}
type Json = { shape?: { method?: { value?: string } } };

beforeAll(async () => {
  validators = await importValidators(
    'apps-differential',
    await generated('2025-11-25', { extensions: ['io.modelcontextprotocol/ui'] }),
  );
}, 120_000);

describe('MCP Apps: our validators and ext-apps zod schemas agree', () => {
  it('the corpus is shared and large enough: at least 50 messages, each accepted by ext-apps', () => {
    expect(CORPUS.length).toBeGreaterThanOrEqual(50);
    const refused = CORPUS.filter((entry) => {
      const value = 'result' in entry ? entry.result : { method: entry.method, params: entry.params };
      return !zodOf(entry).safeParse(value).success;
    });
    expect(refused).toEqual([]);
  });

  it('every message ext-apps accepts, the generated validators accept', () => {
    const refused = CORPUS.flatMap((entry): unknown[] => {
      if ('params' in entry) {
        const validate = validators.paramsValidators[entry.method];
        return validate === undefined || validate(entry.params) ? [] : [{ entry, errors: validate.errors }];
      }
      const names = validators.resultsByMethod[entry.method] ?? [];
      const ok = names.some((name) => validators.resultValidators[name]?.(entry.result));
      return ok ? [] : [{ entry, results: names }];
    });
    expect(refused).toEqual([]);
  });
});
