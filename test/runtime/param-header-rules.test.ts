/**
 * Which `x-mcp-header` annotations of a tool's input schema a 2026-07-28 client mirrors into `Mcp-Param-*`
 * headers (templates/peer/http-headers.ts): only those reached through a chain of `properties`. An annotation
 * anywhere else, under a keyword this runtime knows or not, makes the tool invalid; one inside data
 * (`default`, `examples`, `const`, `enum`) annotates nothing.
 */
import { describe, expect, it } from 'vitest';
import { paramHeaderRules } from '../../templates/peer/http-headers.js';

const region = { type: 'string', 'x-mcp-header': 'Region' };

function reason(inputSchema: unknown): string | undefined {
  const rules = paramHeaderRules(inputSchema);
  return rules.ok ? undefined : rules.reason;
}

describe('paramHeaderRules', () => {
  it('mirrors annotations reached through properties, nested ones with their path', () => {
    const rules = paramHeaderRules({
      type: 'object',
      properties: {
        region,
        where: { type: 'object', properties: { zone: { type: 'integer', 'x-mcp-header': 'Zone' } } },
        plain: { type: 'string' },
      },
    });
    expect(rules).toEqual({
      ok: true,
      rules: [
        { name: 'Region', path: ['region'], type: 'string' },
        { name: 'Zone', path: ['where', 'zone'], type: 'integer' },
      ],
    });
  });

  it.each([
    ['items', { type: 'object', properties: { list: { type: 'array', items: region } } }, '/list'],
    ['prefixItems', { type: 'object', properties: { list: { prefixItems: [region] } } }, '/list'],
    ['anyOf', { type: 'object', anyOf: [{ properties: { region } }] }, '/region'],
    ['allOf', { type: 'object', allOf: [{ properties: { region } }] }, '/region'],
    ['if/then', { type: 'object', if: { properties: { region } }, then: {} }, '/region'],
    ['$defs', { type: 'object', $defs: { r: region } }, '/'],
    ['$defs, a member named like data', { type: 'object', $defs: { default: region } }, '/'],
    ['definitions, a member named like data', { type: 'object', definitions: { enum: region } }, '/'],
    ['patternProperties, a member named like data', { type: 'object', patternProperties: { const: region } }, '/'],
    [
      'dependentSchemas, a member named like data',
      { type: 'object', dependentSchemas: { examples: { properties: { region } } } },
      '/region',
    ],
    ['definitions', { type: 'object', definitions: { r: region } }, '/'],
    ['additionalProperties', { type: 'object', additionalProperties: region }, '/'],
    ['patternProperties', { type: 'object', patternProperties: { '^r': region } }, '/'],
    ['propertyNames', { type: 'object', propertyNames: region }, '/'],
    ['an unknown keyword', { type: 'object', 'x-vendor': { nested: region } }, '/'],
    ['the root', { type: 'string', 'x-mcp-header': 'Root' }, '/'],
  ])('refuses an annotation under %s', (_where, schema, at) => {
    expect(reason(schema)).toBe(`x-mcp-header at ${at} is not reachable through properties only`);
  });

  it('ignores what looks like an annotation inside data', () => {
    const data = { 'x-mcp-header': 'Data' };
    const schema = {
      type: 'object',
      properties: { region: { ...region, default: data, examples: [data], const: data, enum: [data] } },
    };
    expect(paramHeaderRules(schema)).toEqual({
      ok: true,
      rules: [{ name: 'Region', path: ['region'], type: 'string' }],
    });
  });

  it('refuses bad names, duplicates ignoring case, non-primitive types and an annotation beside $ref', () => {
    const tool = (properties: object) => ({ type: 'object', properties });
    expect(reason(tool({ a: { type: 'string', 'x-mcp-header': 'Bad Name' } }))).toBe(
      'x-mcp-header "Bad Name" is not an HTTP token',
    );
    expect(reason(tool({ a: region, b: { type: 'string', 'x-mcp-header': 'REGION' } }))).toBe(
      'x-mcp-header "REGION" is used twice',
    );
    expect(reason(tool({ a: { type: 'number', 'x-mcp-header': 'N' } }))).toBe(
      'x-mcp-header "N" is on a "number" parameter (string, integer or boolean only)',
    );
    expect(reason(tool({ a: { $ref: '#/$defs/r', 'x-mcp-header': 'R' } }))).toBe(
      'x-mcp-header at /a sits next to $ref',
    );
  });
});
