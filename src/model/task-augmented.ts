/**
 * Task-augmented requests (2025-11-25): a request whose params declare `task` (TaskMetadata) is answered
 * with CreateTaskResult instead of its own result when the caller sends `task`. The schema says so in prose
 * only (CreateTaskResult is paired with no request), so the model records it on the method, and the
 * emitters type the call by whether `task` is present and let the receiver's handler return either.
 */
import { resolvePointer } from '../load/pointer.js';
import { isObject, type JsonSchema } from '../load/schema-types.js';
import type { MethodInfo } from './types.js';

const TASK_METADATA = 'TaskMetadata';
const CREATE_TASK_RESULT = 'CreateTaskResult';

/** Sets `taskResult` on each request whose params declare `task` as TaskMetadata, where CreateTaskResult exists. */
export function markTaskAugmented(
  methods: readonly MethodInfo[],
  definitions: Readonly<Record<string, JsonSchema>>,
  defsKeyword: string,
  refName: (ref: string) => string | null | undefined,
): void {
  if (!isObject(definitions[CREATE_TASK_RESULT])) return;
  for (const m of methods) {
    if (m.kind !== 'request' || m.params === null || m.result?.includes(CREATE_TASK_RESULT)) continue;
    const params =
      m.params.kind === 'definition'
        ? definitions[m.params.name]
        : resolvePointer(definitions, m.params.pointer.slice(`#/${defsKeyword}`.length));
    if (declaresTask(params, definitions, refName)) m.taskResult = CREATE_TASK_RESULT;
  }
}

/** `task: TaskMetadata` among the properties, or in every branch of a union of refs (ElicitRequestParams). */
function declaresTask(
  params: unknown,
  definitions: Readonly<Record<string, JsonSchema>>,
  refName: (ref: string) => string | null | undefined,
  depth = 0,
): boolean {
  // A union of unions is followed a few levels deep, never around a cycle.
  if (!isObject(params) || depth > 4) return false;
  const task = isObject(params.properties) ? params.properties['task'] : undefined;
  if (isObject(task) && typeof task.$ref === 'string') return refName(task.$ref) === TASK_METADATA;
  const branches = Array.isArray(params.anyOf) ? params.anyOf : Array.isArray(params.oneOf) ? params.oneOf : [];
  return (
    branches.length > 0 &&
    branches.every((branch) => {
      const name = isObject(branch) && typeof branch.$ref === 'string' ? refName(branch.$ref) : null;
      return typeof name === 'string' && declaresTask(definitions[name], definitions, refName, depth + 1);
    })
  );
}
