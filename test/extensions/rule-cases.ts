/**
 * Every extension name rule, as a table: the fixture files, the file the error names, the JSON pointer and
 * the exact reason. rules.test.ts checks checkExtensions() with it; cli-exit.test.ts runs the same
 * fixtures through the CLI (exit 2, one error line, nothing written).
 */
import type { ExtensionCheckContext } from '../../src/extensions/rules.js';
import { FIXTURES, VERSIONS, allMcpMethods, mcpDefinitionNames, mcpMethods } from './helpers.js';

export const R = `${FIXTURES}/rules`;
/** Every method of every version: tests that must hold whatever the target is. */
export const knownMcpMethods = allMcpMethods();

export function context(version = '2025-11-25', extra: Partial<ExtensionCheckContext> = {}): ExtensionCheckContext {
  return { knownMcpMethods: mcpMethods(version), mcpDefinitionNames: mcpDefinitionNames(version), version, ...extra };
}

const LABEL_RULE =
  'each dot-separated label must start with a letter, end with a letter or digit, and contain only letters, digits and hyphens';
const NAME_RULE = 'it must be segments of letters, digits, "_" and "-" (not starting with "-") separated by "." or "/"';

export type Row = [
  /** fixtures, checked in this order */
  string[],
  /** the file the error names (fixture name) */
  string,
  string,
  string,
  /** context */
  ExtensionCheckContext?,
];

export const rows: Row[] = [
  // extension id syntax
  [
    ['id-no-slash.json'],
    'id-no-slash.json',
    '/extension',
    'extension id "acme-jobs" must have the form "<prefix>/<name>"',
  ],
  [
    ['id-bad-prefix-label-start.json'],
    'id-bad-prefix-label-start.json',
    '/extension',
    `extension id "-acme/jobs" has an invalid prefix "-acme": ${LABEL_RULE}`,
  ],
  [
    ['id-bad-prefix-label-end.json'],
    'id-bad-prefix-label-end.json',
    '/extension',
    `extension id "com.acme-/jobs" has an invalid prefix "com.acme-": ${LABEL_RULE}`,
  ],
  [
    ['id-bad-prefix-underscore.json'],
    'id-bad-prefix-underscore.json',
    '/extension',
    `extension id "com.ac_me/jobs" has an invalid prefix "com.ac_me": ${LABEL_RULE}`,
  ],
  [
    ['id-bad-prefix-empty-label.json'],
    'id-bad-prefix-empty-label.json',
    '/extension',
    `extension id "com..acme/jobs" has an invalid prefix "com..acme": ${LABEL_RULE}`,
  ],
  [
    ['id-bad-prefix-digit-start.json'],
    'id-bad-prefix-digit-start.json',
    '/extension',
    `extension id "1acme/jobs" has an invalid prefix "1acme": ${LABEL_RULE}`,
  ],
  [
    ['id-empty-name.json'],
    'id-empty-name.json',
    '/extension',
    `extension id "com.acme/" has an invalid name "": ${NAME_RULE}`,
  ],
  [
    ['id-bad-name.json'],
    'id-bad-name.json',
    '/extension',
    `extension id "com.acme/my jobs" has an invalid name "my jobs": ${NAME_RULE}`,
  ],
  // reserved prefixes and MCP namespaces for ids
  [
    ['id-mcp-namespace.json'],
    'id-mcp-namespace.json',
    '/extension',
    'extension id "tools/jobs" uses the MCP namespace "tools"',
  ],
  [
    ['id-reserved-modelcontextprotocol.json'],
    'id-reserved-modelcontextprotocol.json',
    '/extension',
    'extension id "io.modelcontextprotocol/jobs" uses the prefix "io.modelcontextprotocol", which is reserved for official MCP extensions',
  ],
  [
    ['id-reserved-mcp.json'],
    'id-reserved-mcp.json',
    '/extension',
    'extension id "dev.mcp/jobs" uses the prefix "dev.mcp", which is reserved for official MCP extensions',
  ],
  [
    ['official-not-reserved.json'],
    'official-not-reserved.json',
    '/official',
    '"official": true requires a reserved MCP prefix (second label "modelcontextprotocol" or "mcp"), not "acme"',
  ],
  // method syntax and prefix
  [
    ['method-no-slash.json'],
    'method-no-slash.json',
    '/methods/acmeStart',
    'method "acmeStart" must have the form "<prefix>/<name>"',
  ],
  [
    ['method-bad-prefix.json'],
    'method-bad-prefix.json',
    '/methods/acme_~1start',
    `method "acme_/start" has an invalid prefix "acme_": ${LABEL_RULE}`,
  ],
  [
    ['method-empty-name.json'],
    'method-empty-name.json',
    '/methods/acme~1',
    `method "acme/" has an invalid name "": ${NAME_RULE}`,
  ],
  [
    ['method-bad-name-double-dot.json'],
    'method-bad-name-double-dot.json',
    '/methods/acme~1jobs..start',
    `method "acme/jobs..start" has an invalid name "jobs..start": ${NAME_RULE}`,
  ],
  [
    ['method-bad-name-trailing-slash.json'],
    'method-bad-name-trailing-slash.json',
    '/methods/acme~1jobs~1',
    `method "acme/jobs/" has an invalid name "jobs/": ${NAME_RULE}`,
  ],
  [
    ['method-bad-name-space.json'],
    'method-bad-name-space.json',
    '/methods/acme~1jobs start',
    `method "acme/jobs start" has an invalid name "jobs start": ${NAME_RULE}`,
  ],
  [
    ['method-prefix-mismatch.json'],
    'method-prefix-mismatch.json',
    '/methods/other~1jobs.start',
    'method "other/jobs.start" has the prefix "other" but the extension "acme/jobs" has the prefix "acme"',
  ],
  [
    ['official-prefix-mismatch.json'],
    'official-prefix-mismatch.json',
    '/methods/com.acme~1search',
    'method "com.acme/search" has the prefix "com.acme" but the extension "io.modelcontextprotocol/search" has the prefix "io.modelcontextprotocol"',
  ],
  // MCP methods and namespaces of the target version (2025-11-25 unless the row says otherwise)
  [
    ['method-collides-mcp.json'],
    'method-collides-mcp.json',
    '/methods/tools~1call',
    'method "tools/call" collides with the MCP method of the same name in MCP 2025-11-25',
  ],
  [
    ['method-collides-ping.json'],
    'method-collides-ping.json',
    '/methods/ping',
    'method "ping" collides with the MCP method of the same name in MCP 2025-11-25',
  ],
  [
    ['official-collides-mcp.json'],
    'official-collides-mcp.json',
    '/methods/tasks~1get',
    'method "tasks/get" collides with the MCP method of the same name in MCP 2025-11-25',
  ],
  [
    ['official-defined-namespace.json'],
    'official-defined-namespace.json',
    '/methods/tools~1search',
    'method "tools/search" is in the namespace "tools/", which MCP 2025-11-25 defines',
  ],
  [
    ['official-notifications-namespace.json'],
    'official-notifications-namespace.json',
    '/methods/notifications~1tasks',
    'method "notifications/tasks" is in the namespace "notifications/tasks/", which MCP 2025-11-25 defines',
  ],
  [
    ['official-collides-mcp.json'],
    'official-collides-mcp.json',
    '/methods/tasks~1get',
    'method "tasks/get" is in the namespace "tasks/", which the target schema defines',
    { knownMcpMethods: new Set(['tasks/list']) },
  ],
  [
    ['method-mcp-namespace.json'],
    'method-mcp-namespace.json',
    '/methods/tools~1acme.search',
    'method "tools/acme.search" has the prefix "tools" but the extension "acme/jobs" has the prefix "acme"',
  ],
  [
    ['method-mcp-namespace-notifications.json'],
    'method-mcp-namespace-notifications.json',
    '/methods/notifications~1acme~1finished',
    'method "notifications/acme/finished" has the prefix "notifications" but the extension "acme/jobs" has the prefix "acme"',
  ],
  // duplicates across files: the second file is reported
  [
    ['dup-a.json', 'dup-method-b.json'],
    'dup-method-b.json',
    '/methods/acme~1jobs.start',
    `method "acme/jobs.start" is already declared by extension "acme/jobs" in ${R}/dup-a.json`,
  ],
  [
    ['dup-a.json', 'dup-id-b.json'],
    'dup-id-b.json',
    '/extension',
    `extension "acme/jobs" is already declared in ${R}/dup-a.json`,
  ],
  [
    ['dup-a.json', 'dup-definition-b.json'],
    'dup-definition-b.json',
    '/definitions/AcmeJob',
    `definition "AcmeJob" is already declared by extension "acme/jobs" in ${R}/dup-a.json`,
  ],
  [
    ['dup-old-a.json', 'dup-overlap-b.json'],
    'dup-overlap-b.json',
    '/extension',
    `extension "acme/jobs" is already declared in ${R}/dup-old-a.json`,
    { knownMcpMethods },
  ],
  // definitions
  [
    ['definition-not-identifier.json'],
    'definition-not-identifier.json',
    '/definitions/Acme-Job',
    'definition name "Acme-Job" is not a PascalCase identifier, which generated names must be (rename it "AcmeJob")',
  ],
  [
    ['definition-proto.json'],
    'definition-proto.json',
    '/definitions/__proto__',
    'definition name "__proto__" is not a PascalCase identifier, which generated names must be (rename it "Proto")',
  ],
  [
    ['definition-reserved.json'],
    'definition-reserved.json',
    '/definitions/string',
    'definition name "string" is not a PascalCase identifier, which generated names must be (rename it "String")',
  ],
  [
    ['definition-collides-mcp.json'],
    'definition-collides-mcp.json',
    '/definitions/ContentBlock',
    'definition "ContentBlock" collides with the MCP definition of the same name in 2025-11-25',
  ],
  // refs
  [
    ['ref-mcp-unknown.json'],
    'ref-mcp-unknown.json',
    '/methods/acme~1jobs.start/result/properties/content/items/$ref',
    '"mcp:ContentBlok" refers to "ContentBlok", which is not an MCP definition in 2025-11-25',
  ],
  [
    ['ref-mcp-contentblock.json'],
    'ref-mcp-contentblock.json',
    '/definitions/AcmeOutput/properties/content/items/$ref',
    '"mcp:ContentBlock" refers to "ContentBlock", which is not an MCP definition in 2025-03-26',
    context('2025-03-26'),
  ],
  [
    ['ref-mcp-contentblock.json'],
    'ref-mcp-contentblock.json',
    '/definitions/AcmeOutput/properties/content/items/$ref',
    '"mcp:ContentBlock" refers to "ContentBlock", which is not an MCP definition of the target version',
    { knownMcpMethods, mcpDefinitionNames: mcpDefinitionNames('2024-11-05') },
  ],
  [
    ['ref-mcp-invalid.json'],
    'ref-mcp-invalid.json',
    '/methods/acme~1jobs.start/result/$ref',
    '"mcp:" is not a valid MCP reference: use "mcp:<DefinitionName>"',
  ],
  [
    ['ref-local-missing.json'],
    'ref-local-missing.json',
    '/definitions/AcmeJob/properties/state/$ref',
    '"#/definitions/AcmeJobState" does not resolve: no definition "AcmeJobState" in this file',
  ],
  [
    ['ref-local-deep.json'],
    'ref-local-deep.json',
    '/definitions/AcmeId/$ref',
    'unsupported $ref "#/definitions/AcmeJob/properties/id": use "mcp:<DefinitionName>", "#/definitions/<Name>" or "<file>#/definitions/<Name>"',
  ],
  [
    ['ref-unsupported.json'],
    'ref-unsupported.json',
    '/settings/properties/x/$ref',
    'unsupported $ref "https://example.com/x.schema.json": use "mcp:<DefinitionName>", "#/definitions/<Name>" or "<file>#/definitions/<Name>"',
  ],
  [
    ['ref-defs-style.json'],
    'ref-defs-style.json',
    '/methods/acme~1jobs.start/params/properties/a/anyOf/1/$ref',
    'unsupported $ref "#/$defs/AcmeJob": use "mcp:<DefinitionName>", "#/definitions/<Name>" or "<file>#/definitions/<Name>"',
  ],
  // targets
  [
    ['target-unknown.json'],
    'target-unknown.json',
    '/targets/1',
    'unknown MCP version "2025-01-01"',
    { knownMcpMethods, knownVersions: new Set(VERSIONS) },
  ],
];
