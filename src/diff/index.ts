export { diffModels, exitCodeFor, parseIgnoreFile, locationKey } from './diff.js';
export {
  RULES,
  ruleById,
  verdictsFor,
  describeVerdictLogic,
  partRuleId,
  callerOf,
  type Rule,
  type RuleRoles,
  type ChangeKind,
} from './rules.js';
export {
  renderReport,
  renderText,
  renderJson,
  renderMarkdown,
  renderGithub,
  renderRules,
  escapeGithubData,
  escapeGithubProperty,
  REPORT_FORMATS,
  REPORT_FORMAT_VERSION,
  type ReportFormat,
  type RenderOptions,
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
