/**
 * The 2026-07-28 example server's input-required fixtures (SEP-2322): tools and a prompt that ask the client
 * for input with `ctx.inputs` and finish on its retry. Their `requestState` is signed (HMAC) by this process,
 * so a tampered one is refused instead of trusted: the server keeps nothing between rounds.
 */
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import {
  ERROR_CODES,
  ProtocolError,
  type CallToolRequestParams,
  type GetPromptRequestParams,
  type McpServerHandlers,
  type Prompt,
  type ServerContext,
  type Tool,
} from '../.generated/2026-07-28/index.js';

type ToolResult = ReturnType<McpServerHandlers['tools/call']>;
type PromptResult = ReturnType<McpServerHandlers['prompts/get']>;

/** A tool of the example: how it is listed and what a call does. */
export interface ToolFixture {
  tool: Tool;
  call: (params: CallToolRequestParams, ctx: ServerContext) => ToolResult;
}

const KEY = randomBytes(32);

/** `payload`, signed: what the server hands the client as `requestState`. */
function sign(payload: string): string {
  const body = Buffer.from(payload).toString('base64url');
  return `${body}.${createHmac('sha256', KEY).update(body).digest('base64url')}`;
}

/** The payload of a `requestState` this server signed; -32602 for one it did not (tampered, or made up). */
function verified(state: string | undefined): string | undefined {
  if (state === undefined) return undefined;
  const [body = '', mac = ''] = state.split('.');
  const expected = createHmac('sha256', KEY).update(body).digest();
  const given = Buffer.from(mac, 'base64url');
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) {
    throw new ProtocolError(ERROR_CODES.InvalidParamsError, 'requestState failed its integrity check');
  }
  return Buffer.from(body, 'base64url').toString();
}

const text = (value: string) => ({ type: 'text' as const, text: value });
const noArguments: Tool['inputSchema'] = { type: 'object', properties: {} };
const askName = {
  method: 'elicitation/create' as const,
  params: {
    message: 'What is your name?',
    requestedSchema: { type: 'object' as const, properties: { name: { type: 'string' as const } }, required: ['name'] },
  },
};
const askCapital = {
  method: 'sampling/createMessage' as const,
  params: {
    messages: [{ role: 'user' as const, content: text('What is the capital of France?') }],
    maxTokens: 100,
  },
};
const askRoots = { method: 'roots/list' as const };

/** A text field of an elicitation's answer, or `fallback` when the user declined or left it out. */
function field(answer: { action: string; content?: { [key: string]: unknown } }, name: string, fallback = ''): string {
  const value = answer.action === 'accept' ? answer.content?.[name] : undefined;
  return typeof value === 'string' ? value : fallback;
}

/** The text of a sampling answer. */
function sampled(answer: { content: unknown }): string {
  const blocks = Array.isArray(answer.content) ? answer.content : [answer.content];
  return blocks.map((block: { type?: string; text?: string }) => (block.type === 'text' ? block.text : '')).join('');
}

const tools: ToolFixture[] = [
  {
    tool: { name: 'test_input_required_result_elicitation', description: 'Asks for a name', inputSchema: noArguments },
    call: (params, ctx) => {
      const round = ctx.inputs(params, { user_name: askName });
      if (!round.complete) return round.ask;
      return { content: [text(`Hello, ${field(round.responses.user_name, 'name', 'stranger')}!`)] };
    },
  },
  {
    tool: {
      name: 'test_input_required_result_sampling',
      description: 'Asks the client to sample',
      inputSchema: noArguments,
    },
    call: (params, ctx) => {
      const round = ctx.inputs(params, { capital_question: askCapital });
      if (!round.complete) return round.ask;
      return { content: [text(`The model said: ${sampled(round.responses.capital_question)}`)] };
    },
  },
  {
    tool: {
      name: 'test_input_required_result_list_roots',
      description: 'Asks for the roots',
      inputSchema: noArguments,
    },
    call: (params, ctx) => {
      const round = ctx.inputs(params, { client_roots: askRoots });
      if (!round.complete) return round.ask;
      const roots = round.responses.client_roots.roots.map((root) => root.uri);
      return { content: [text(`Roots: ${roots.join(', ') || '(none)'}`)] };
    },
  },
  {
    tool: {
      name: 'test_input_required_result_request_state',
      description: 'Round-trips requestState',
      inputSchema: noArguments,
    },
    call: (params, ctx) => {
      const confirm = {
        method: 'elicitation/create' as const,
        params: {
          message: 'Please confirm',
          requestedSchema: {
            type: 'object' as const,
            properties: { ok: { type: 'boolean' as const } },
            required: ['ok'],
          },
        },
      };
      const round = ctx.inputs(params, { confirm }, { requestState: sign('request-state') });
      if (!round.complete) return round.ask;
      if (verified(round.requestState) !== 'request-state') {
        throw new ProtocolError(ERROR_CODES.InvalidParamsError, 'requestState missing');
      }
      return { content: [text(`state-ok: confirmed with ${round.responses.confirm.action}`)] };
    },
  },
  {
    tool: {
      name: 'test_input_required_result_multiple_inputs',
      description: 'Asks for three inputs at once',
      inputSchema: noArguments,
    },
    call: (params, ctx) => {
      const greeting = {
        method: 'sampling/createMessage' as const,
        params: { messages: [{ role: 'user' as const, content: text('Generate a greeting') }], maxTokens: 50 },
      };
      const asks = { user_name: askName, greeting, client_roots: askRoots };
      const round = ctx.inputs(params, asks, { requestState: sign('multiple') });
      if (!round.complete) return round.ask;
      verified(round.requestState);
      const { user_name, client_roots } = round.responses;
      return {
        content: [
          text(`${sampled(round.responses.greeting)} ${field(user_name, 'name')} (${client_roots.roots.length} roots)`),
        ],
      };
    },
  },
  {
    tool: {
      name: 'test_input_required_result_multi_round',
      description: 'Two rounds of input',
      inputSchema: noArguments,
    },
    call: multiRound,
  },
  {
    tool: {
      name: 'test_input_required_result_tampered_state',
      description: 'Refuses a requestState it did not sign',
      inputSchema: noArguments,
    },
    call: (params, ctx) => {
      const round = ctx.inputs(params, { user_name: askName }, { requestState: sign('tamper-proof') });
      if (!round.complete) return round.ask;
      if (verified(round.requestState) !== 'tamper-proof') {
        throw new ProtocolError(ERROR_CODES.InvalidParamsError, 'requestState missing');
      }
      return { content: [text(`Hello, ${field(round.responses.user_name, 'name')}!`)] };
    },
  },
  {
    tool: {
      name: 'test_input_required_result_capabilities',
      description: 'Asks only for what the client can answer',
      inputSchema: noArguments,
    },
    call: (params, ctx) => {
      const declared = ctx.session.clientCapabilities ?? {};
      // Each input only when the request declares the capability that answers it.
      if ('elicitation' in declared) {
        const round = ctx.inputs(params, { user_name: askName });
        return round.complete ? { content: [text(`Hello, ${field(round.responses.user_name, 'name')}!`)] } : round.ask;
      }
      if ('sampling' in declared) {
        const round = ctx.inputs(params, { capital_question: askCapital });
        return round.complete ? { content: [text(sampled(round.responses.capital_question))] } : round.ask;
      }
      return { content: [text('The client declared nothing to ask with.')] };
    },
  },
];

/** Round 1 asks step 1; its retry asks step 2 (a new requestState); the retry after that completes. */
function multiRound(params: CallToolRequestParams, ctx: ServerContext): ToolResult {
  const stage = verified(params.requestState);
  const step1 = {
    method: 'elicitation/create' as const,
    params: {
      message: 'Step 1: What is your name?',
      requestedSchema: {
        type: 'object' as const,
        properties: { name: { type: 'string' as const } },
        required: ['name'],
      },
    },
  };
  if (stage === undefined || stage === 'step1') {
    const round = ctx.inputs(params, { step1 }, { requestState: sign('step1') });
    if (!round.complete) return round.ask;
    const name = field(round.responses.step1, 'name');
    return askColor(name);
  }
  const name = stage.slice('step2:'.length);
  const round = ctx.inputs(params, { step2: colorQuestion }, { requestState: sign(stage) });
  if (!round.complete) return round.ask;
  return { content: [text(`${name} likes ${field(round.responses.step2, 'color')}`)] };
}

const colorQuestion = {
  method: 'elicitation/create' as const,
  params: {
    message: 'Step 2: What is your favorite color?',
    requestedSchema: {
      type: 'object' as const,
      properties: { color: { type: 'string' as const } },
      required: ['color'],
    },
  },
};

/** Step 2's question, carrying step 1's answer in the signed state. */
function askColor(name: string): ToolResult {
  return {
    resultType: 'input_required',
    inputRequests: { step2: colorQuestion },
    requestState: sign(`step2:${name}`),
  };
}

export const INPUT_TOOLS: readonly ToolFixture[] = tools;

/** The prompt that asks for input before it can be rendered (input-required is not only for tools). */
export const INPUT_PROMPT: Prompt = {
  name: 'test_input_required_result_prompt',
  description: 'A prompt that asks the user for context first',
};

export function inputPrompt(params: GetPromptRequestParams, ctx: ServerContext): PromptResult {
  const user_context = {
    method: 'elicitation/create' as const,
    params: {
      message: 'What context should the prompt use?',
      requestedSchema: {
        type: 'object' as const,
        properties: { context: { type: 'string' as const } },
        required: ['context'],
      },
    },
  };
  const round = ctx.inputs(params, { user_context });
  if (!round.complete) return round.ask;
  const context = field(round.responses.user_context, 'context');
  return { messages: [{ role: 'user', content: text(`Use this context: ${context}`) }] };
}
