/**
 * The names extension ids give generated definitions, kept apart from the merge (model/extensions.ts) so
 * light modules (the emitters' export lists, which `--check` loads) can read them without the loader.
 */

/** `acme/jobs.start` → `AcmeJobsStart`; `com.acme/search` → `ComAcmeSearch`. */
export function pascalCase(text: string): string {
  return text
    .split(/[^A-Za-z0-9]+/)
    .filter(Boolean)
    .map((part) => part.charAt(0).toUpperCase() + part.slice(1))
    .join('');
}

/** The definition an extension's settings get: `acme/jobs` → `AcmeJobsSettings`. */
export function settingsDefinitionName(id: string): string {
  return `${pascalCase(id)}Settings`;
}
