export { diffModels, exitCodeFor, parseIgnoreFile, locationKey } from './diff.js';
export { rules, ruleById } from './rule-table.js';
export {
  verdictsFor,
  describeVerdictLogic,
  partRuleId,
  callerOf,
  PROTOCOL_RULES,
  METHOD_RULES,
  CHANGE_KINDS,
  type Rule,
  type RuleSpec,
  type RuleRoles,
  type RuleConsequences,
  type ChangeKind,
} from './rules.js';
export { verdictOf, dataConsequences, type Consequence, type Effect } from './frame.js';
export { pointerLines } from './json-lines.js';
export { requireComparableSides } from './coverage.js';
export {
  renderReport,
  renderText,
  renderJson,
  renderMarkdown,
  renderGithub,
  renderRules,
  MARKDOWN_BUDGET,
  escapeGithubData,
  escapeGithubProperty,
  REPORT_FORMATS,
  REPORT_FORMAT_VERSION,
  type ReportFormat,
  type RenderOptions,
  type SchemaLocator,
} from './render.js';
export {
  readDiffSource,
  loadDiffSide,
  diffSources,
  type DiffSource,
  type DiffSourceOptions,
  type DiffSide,
} from './sources.js';
export * from './types.js';
