/**
 * The 2026-07-28 example server's tasks (SEP-2663, `--ext io.modelcontextprotocol/tasks`): tools that answer
 * with a task when the request declares the extension, and the `tasks/get`, `tasks/update`, `tasks/cancel`
 * handlers over an in-memory store. The suite's fixtures: `greet` (never a task), `slow_compute` (a task that
 * sleeps), `failing_job` (a task only: its tool fails), `protocol_error_job` (its task fails), `confirm_delete`
 * and `multi_input` (tasks waiting for input), `test_tool_with_task` (input first, then a task).
 */
import { randomUUID } from 'node:crypto';
import {
  ERROR_CODES,
  ProtocolError,
  type CallToolRequestParams,
  type DetailedTask,
  type InputRequests,
  type InputResponses,
  type JSONObject,
  type McpServerHandlers,
  type ServerContext,
  type Task,
} from '../.generated/2026-07-28/index.js';
import type { ToolFixture } from './inputs.js';

export const TASKS = 'io.modelcontextprotocol/tasks';
type ToolResult = ReturnType<McpServerHandlers['tools/call']>;

/** Whether this request declares the tasks extension (2026-07-28: each request declares its capabilities). */
export function wantsTasks(ctx: ServerContext): boolean {
  const extensions = ctx.session.clientCapabilities?.['extensions'];
  return typeof extensions === 'object' && extensions !== null && TASKS in extensions;
}

/** -32021 naming the extension a request needs and did not declare. */
function missingTasks(): ProtocolError {
  return new ProtocolError(
    ERROR_CODES.MissingRequiredClientCapabilityError,
    `This request needs the client capability extensions["${TASKS}"]`,
    { requiredCapabilities: { extensions: { [TASKS]: {} } } },
  );
}

/** A task and what moves it on: its timer, and the input it still waits for with what to do once answered. */
interface Entry {
  task: DetailedTask;
  timer?: NodeJS.Timeout;
  waiting?: { requests: InputRequests; answered: InputResponses; then: (answers: InputResponses) => void };
}

const entries = new Map<string, Entry>();
const now = () => new Date().toISOString();
/** Who hears of a task's changes (the subscriptions/listen streams that asked for it). */
let announce: (task: DetailedTask) => void = () => {};

export function onTaskChange(listener: (task: DetailedTask) => void): void {
  announce = listener;
}

function created(): Task {
  const at = now();
  const task: Task = {
    taskId: randomUUID(),
    status: 'working',
    createdAt: at,
    lastUpdatedAt: at,
    ttlMs: 300_000,
    pollIntervalMs: 100,
  };
  entries.set(task.taskId, { task: { ...task, status: 'working' } });
  return task;
}

/** Moves a task to its next state and tells the listeners. */
function settle(taskId: string, next: DetailedTask): void {
  const entry = entries.get(taskId);
  if (entry === undefined || isTerminal(entry.task)) return;
  clearTimeout(entry.timer);
  entry.task = { ...next, lastUpdatedAt: now() };
  announce(entry.task);
}

const isTerminal = (task: DetailedTask) => ['completed', 'failed', 'cancelled'].includes(task.status);
const base = (taskId: string): Task => {
  const { task } = entries.get(taskId)!;
  return {
    taskId,
    createdAt: task.createdAt,
    lastUpdatedAt: task.lastUpdatedAt,
    ttlMs: task.ttlMs,
    status: task.status,
  };
};
const text = (value: string) => ({ type: 'text' as const, text: value });
const complete = (value: string, isError = false): JSONObject => ({
  resultType: 'complete',
  content: [text(value)],
  isError,
});

function completeLater(taskId: string, ms: number, result: JSONObject): void {
  const entry = entries.get(taskId)!;
  entry.timer = setTimeout(() => settle(taskId, { ...base(taskId), status: 'completed', result }), ms);
}

/** Parks a task in input_required until every request is answered through tasks/update. */
function waitForInput(taskId: string, requests: InputRequests, then: (answers: InputResponses) => void): void {
  const entry = entries.get(taskId)!;
  entry.waiting = { requests, answered: {}, then };
  settle(taskId, { ...base(taskId), status: 'input_required', inputRequests: requests });
}

const asTask = (task: Task): ToolResult => ({ ...task, resultType: 'task' });
const confirm = (message: string) => ({
  method: 'elicitation/create' as const,
  params: {
    message,
    requestedSchema: {
      type: 'object' as const,
      properties: { confirm: { type: 'boolean' as const } },
      required: ['confirm'],
    },
  },
});
const accepted = (answer: unknown) =>
  typeof answer === 'object' && answer !== null && (answer as { action?: unknown }).action === 'accept';

const seconds = (params: CallToolRequestParams) => {
  const value = params.arguments?.['seconds'];
  return typeof value === 'number' && value >= 0 ? value : 1;
};

const tools: ToolFixture[] = [
  {
    tool: {
      name: 'greet',
      description: 'Greets at once (never a task)',
      inputSchema: { type: 'object', properties: { name: { type: 'string' } } },
    },
    call: (params) => ({ content: [text(`Hello, ${String(params.arguments?.['name'] ?? 'World')}!`)] }),
  },
  {
    tool: {
      name: 'slow_compute',
      description: 'Sleeps for `seconds`, as a task when the client takes tasks',
      inputSchema: { type: 'object', properties: { seconds: { type: 'number', minimum: 0 } } },
    },
    call: async (params, ctx) => {
      const ms = seconds(params) * 1000;
      if (!wantsTasks(ctx)) {
        await new Promise((resolve) => setTimeout(resolve, ms));
        return { content: [text(`Computed after ${seconds(params)} s`)] };
      }
      const task = created();
      completeLater(task.taskId, ms, complete(`Computed after ${seconds(params)} s`));
      return asTask(task);
    },
  },
  {
    tool: {
      name: 'failing_job',
      description: 'A task whose tool fails (tasks only)',
      inputSchema: { type: 'object', properties: {} },
    },
    call: (_params, ctx) => {
      if (!wantsTasks(ctx)) throw missingTasks();
      const task = created();
      completeLater(task.taskId, 300, complete('The job failed: out of widgets', true));
      return asTask(task);
    },
  },
  {
    tool: {
      name: 'protocol_error_job',
      description: 'A task that ends in a protocol error',
      inputSchema: { type: 'object', properties: {} },
    },
    call: (_params, ctx) => {
      if (!wantsTasks(ctx)) throw new ProtocolError(ERROR_CODES.InternalError, 'The job crashed');
      const task = created();
      const entry = entries.get(task.taskId)!;
      entry.timer = setTimeout(() => {
        const error = { code: ERROR_CODES.InternalError, message: 'The job crashed' };
        settle(task.taskId, { ...base(task.taskId), status: 'failed', statusMessage: error.message, error });
      }, 100);
      return asTask(task);
    },
  },
  {
    tool: {
      name: 'confirm_delete',
      description: 'Asks for confirmation, then deletes',
      inputSchema: { type: 'object', properties: {} },
    },
    call: (_params, ctx) => {
      if (!wantsTasks(ctx)) return { content: [text('Nothing deleted: confirmation needs tasks')] };
      const task = created();
      waitForInput(task.taskId, { confirm: confirm('Delete the file?') }, (answers) =>
        settle(task.taskId, {
          ...base(task.taskId),
          status: 'completed',
          result: complete(accepted(answers['confirm']) ? 'Deleted' : 'Kept'),
        }),
      );
      return asTask(task);
    },
  },
  {
    tool: {
      name: 'multi_input',
      description: 'Asks two questions at once',
      inputSchema: { type: 'object', properties: {} },
    },
    call: (_params, ctx) => {
      if (!wantsTasks(ctx)) return { content: [text('Nothing asked: questions need tasks')] };
      const task = created();
      waitForInput(task.taskId, { first: confirm('First?'), second: confirm('Second?') }, (answers) =>
        settle(task.taskId, {
          ...base(task.taskId),
          status: 'completed',
          result: complete(`Answered ${Object.keys(answers).sort().join(' and ')}`),
        }),
      );
      return asTask(task);
    },
  },
  {
    tool: {
      name: 'test_tool_with_task',
      description: 'Asks for a name (input-required), then greets in a task',
      inputSchema: { type: 'object', properties: {} },
    },
    call: (params, ctx) => {
      if (!wantsTasks(ctx)) throw missingTasks();
      const round = ctx.inputs(params, {
        user_name: {
          method: 'elicitation/create',
          params: {
            message: 'What is your name?',
            requestedSchema: { type: 'object', properties: { name: { type: 'string' } }, required: ['name'] },
          },
        },
      });
      if (!round.complete) return round.ask;
      const answer = round.responses.user_name;
      const name = answer.action === 'accept' ? String(answer.content?.['name'] ?? '') : 'stranger';
      const task = created();
      completeLater(task.taskId, 100, complete(`Hello, ${name}, from a task`));
      return asTask(task);
    },
  },
];

export const TASK_TOOLS: readonly ToolFixture[] = tools;

/** The entry of a task, or -32602 for an id this server never gave (or whose request lacks the extension: -32021). */
function entryOf(taskId: string, ctx: ServerContext): Entry {
  if (!wantsTasks(ctx)) throw missingTasks();
  const entry = entries.get(taskId);
  if (entry === undefined)
    throw new ProtocolError(ERROR_CODES.InvalidParamsError, `Unknown task ${taskId}`, { taskId });
  return entry;
}

export const taskHandlers: Pick<McpServerHandlers, 'tasks/get' | 'tasks/update' | 'tasks/cancel'> = {
  'tasks/get': ({ taskId }, ctx) => ({ ...entryOf(taskId, ctx).task, resultType: 'complete' }),
  'tasks/update': ({ taskId, inputResponses }, ctx) => {
    const entry = entryOf(taskId, ctx);
    const waiting = entry.waiting;
    if (waiting === undefined || entry.task.status !== 'input_required') return { resultType: 'complete' };
    for (const [key, answer] of Object.entries(inputResponses)) {
      if (Object.hasOwn(waiting.requests, key)) waiting.answered[key] = answer;
    }
    const pending = Object.fromEntries(
      Object.entries(waiting.requests).filter(([key]) => !Object.hasOwn(waiting.answered, key)),
    );
    if (Object.keys(pending).length > 0) {
      entry.task = { ...entry.task, status: 'input_required', inputRequests: pending, lastUpdatedAt: now() };
    } else {
      entry.waiting = undefined;
      settle(taskId, { ...base(taskId), status: 'working' });
      waiting.then(waiting.answered);
    }
    return { resultType: 'complete' };
  },
  'tasks/cancel': ({ taskId }, ctx) => {
    const entry = entryOf(taskId, ctx);
    if (!isTerminal(entry.task)) settle(taskId, { ...base(taskId), status: 'cancelled' });
    return { resultType: 'complete' };
  },
};
