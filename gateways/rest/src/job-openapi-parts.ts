/**
 * What the bulk-job routes' OpenAPI operations share: the document's parts they are given, the
 * small schema builders, the CSV dialect's description, and the examples of the demo's job
 * (scripts/openapi-examples.ts) their parameters show.
 */
import type { MessageSchemas } from '@retail/gateway-shared';
import { GET_JOB } from './job-paths.js';
import { OPENAPI_EXAMPLES } from './openapi-examples.generated.js';

export interface JobDocumentParts {
  readonly schemas: MessageSchemas;
  /** The headers of a free call's answer (X-Request-Id, RateLimit, X-Units-Charged: 0, X-Units-Remaining). */
  readonly freeHeaders: Record<string, unknown>;
  readonly errorRefs: (statuses: readonly string[]) => Record<string, unknown>;
  /** The 404 of a route naming a job: "no such job for this account". */
  readonly notFound: Record<string, unknown>;
}

export const text = (description: string) => ({ type: 'string', description });
export const envelope = (description: string) => ({ description, content: { 'application/json': { schema: { $ref: '#/components/schemas/ErrorEnvelope' } } } });

export const CSV_DIALECT = 'RFC 4180 CSV, UTF-8 (a byte-order mark is tolerated), comma-separated, a header row first; fields with commas, quotes or line breaks in double quotes.';

/** A schema with an example in `examples` (a parameter's `example` is what explorers fill in: only the create's working request has them). */
export const withExample = (schema: Record<string, unknown>, value: unknown) => (value === undefined ? schema : { ...schema, examples: [value] });

export const query = (name: string, schema: Record<string, unknown>, description: string) => ({ name, in: 'query', required: false, description, schema });

/** The demo's job, as GetJob answered it once ended. */
export const exampleJob = () => (OPENAPI_EXAMPLES[GET_JOB.operationId]?.response as { data?: { retailJob?: Record<string, unknown> } } | undefined)?.data?.retailJob;
