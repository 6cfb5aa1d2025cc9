/**
 * What a Standard Schema consumer infers from a generated validator is the generated type (issue 29, item 1).
 * Compiled with tsc --strict beside the acme-jobs 2025-11-25 output by standard-schema.test.ts, then again with
 * the validators loosened, when every tagged directive must be unused.
 */
import type { Client } from '@modelcontextprotocol/client';
import type { Server, StandardSchemaV1, StandardSchemaV1Sync } from '@modelcontextprotocol/server';
import * as v from './generated/validators.js';
import type * as T from './generated/types.js';

type Equals<A, B> = (<X>() => X extends A ? 1 : 2) extends <X>() => X extends B ? 1 : 2 ? true : false;
type Out<S extends StandardSchemaV1> = StandardSchemaV1.InferOutput<S>;

// The SDK's inference gives the generated type: a definition, a vendor method's params, inline params.
export const definition: Equals<Out<typeof v.CallToolResult>, T.CallToolResult> = true;
export const vendorParams: Equals<Out<typeof v.AcmeJobsStartRequestParams>, T.AcmeJobsStartRequestParams> = true;
export const inlineParams: Equals<Out<typeof v.params$CancelTaskRequest>, T.CancelTaskRequestParams> = true;
export const input: Equals<StandardSchemaV1.InferInput<typeof v.AcmeJobsListResult>, T.AcmeJobsListResult> = true;
declare const listResult: T.AcmeJobsListResult;
// @ts-expect-error [other-type]
export const other: Out<typeof v.AcmeJobsStartResult> = listResult;

// Synchronous, as the SDK's own spec schemas are.
export const sync: StandardSchemaV1Sync<T.AcmeJobsStartResult> = v.AcmeJobsStartResult;

export function register(server: Server): void {
  server.setRequestHandler(
    'acme/jobs.start',
    { params: v.AcmeJobsStartRequestParams, result: v.AcmeJobsStartResult },
    (params) => {
      const pipeline: string = params.pipeline;
      // @ts-expect-error [unknown-param]
      void params.pipelines;
      return { job: { id: 'job-1', pipeline, state: 'queued' as const, createdAt: '2026-12-01T00:00:00Z' } };
    },
  );
  server.setRequestHandler(
    'acme/jobs.start',
    { params: v.AcmeJobsStartRequestParams, result: v.AcmeJobsStartResult },
    // @ts-expect-error [wrong-result]
    () => ({ job: { id: 'job-1' } }),
  );
}

export async function call(client: Client): Promise<T.AcmeJobState> {
  const result = await client.request(
    { method: 'acme/jobs.start', params: { pipeline: 'nightly' } },
    v.AcmeJobsStartResult,
  );
  // @ts-expect-error [result-member-type]
  const count: number = result.job.state;
  void count;
  return result.job.state;
}

// Calling a validator narrows what it accepts to the generated type.
export function narrow(value: unknown): string | undefined {
  if (!v.AcmeJobsStartRequestParams(value)) return undefined;
  // @ts-expect-error [narrowed]
  const count: number = value.pipeline;
  void count;
  return value.pipeline;
}
