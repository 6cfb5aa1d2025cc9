/** The artifacts generate can emit, and what each needs. Light on imports: `--check` reads it. */
export const ARTIFACTS = ['types', 'maps', 'client', 'server', 'validators'] as const;
export type Artifact = (typeof ARTIFACTS)[number];
export type ImportExtension = '.js' | '.ts' | '';

const ARTIFACT_NEEDS: Record<Artifact, Artifact[]> = {
  types: [],
  maps: ['types'],
  validators: [],
  client: ['maps', 'types'],
  server: ['maps', 'types', 'validators'],
};

/** The requested artifacts plus what they need, in a fixed order; all of them when none is named. */
export function resolveArtifacts(requested: readonly Artifact[] | undefined): Artifact[] {
  const wanted = new Set<Artifact>(requested && requested.length > 0 ? requested : ARTIFACTS);
  for (const a of [...wanted]) for (const need of ARTIFACT_NEEDS[a]) wanted.add(need);
  return ARTIFACTS.filter((a) => wanted.has(a));
}
