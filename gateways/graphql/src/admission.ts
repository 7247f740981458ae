/**
 * Admission, in Apollo's `didResolveOperation` (the document is parsed and validated, nothing has
 * run): plan the operation, then scope, rate limit, parameter shape and one hold for every planned
 * call, in CONTRACT.md's order. Introspection and `__typename` only are free but need a valid key.
 * A refusal is recorded on the context (the settlement plugin answers it) and stops the pipeline.
 */
import type { ApolloServerPlugin } from '@apollo/server';
import { admitCall, singleFailure } from '@retail/gateway-shared';
import { ErrorReason } from '@retail/contract';
import type { Meter } from '@retail/metering/api';
import type { Admission, GraphqlContext, Refusal } from './context.js';
import { GraphQLError } from './graphql.js';
import { type PlanLimits, type RequestPlan, planRequest } from './plan.js';

/** A free request (or a refused document) still needs a valid key: 401 before anything else. */
export async function authenticateKey(meter: Meter, ctx: GraphqlContext): Promise<Refusal | Omit<Admission, 'plan'>> {
  const auth = await meter.authenticate(ctx.key, 'graphql');
  if (auth.ok) return { rateLimit: auth.rateLimit };
  const d = auth.denial;
  return { failure: singleFailure(d.httpStatus, d.reason, d.message, undefined, d.retryAfterSeconds), rateLimit: d.rateLimit };
}

async function holdUnits(meter: Meter, ctx: GraphqlContext, plan: RequestPlan): Promise<Refusal | Admission> {
  if (plan.calls.length === 0) {
    const free = await authenticateKey(meter, ctx);
    return 'failure' in free ? free : { plan, ...free };
  }
  const operations = plan.calls.map((c) => c.operation.name);
  const admitted = await admitCall(meter, { headers: ctx.headers, iface: 'graphql', operations, shapeErrors: [], requestId: ctx.requestId });
  return admitted.ok ? { plan, hold: admitted.hold, rateLimit: admitted.rateLimit } : admitted;
}

export function admissionPlugin(meter: Meter, limits: PlanLimits): ApolloServerPlugin<GraphqlContext> {
  return {
    async requestDidStart() {
      return {
        async didResolveOperation({ contextValue: ctx, document, request, schema }) {
          const planned = planRequest(schema, { document, operationName: request.operationName, variables: request.variables }, limits);
          let outcome: Refusal | Admission;
          if (planned.ok) outcome = await holdUnits(meter, ctx, planned.plan);
          else {
            // Scope (403) and rate limit (429) answer before the plan's 400s, holding nothing.
            const shapeErrors = planned.errors.map((e) => ({ message: e.message, path: e.path ?? [] }));
            const admitted = await admitCall(meter, { headers: ctx.headers, iface: 'graphql', operations: planned.operations, shapeErrors, requestId: ctx.requestId });
            if (admitted.ok) await meter.settle(admitted.hold, 0).catch(() => undefined); // not expected: shape errors hold nothing
            outcome = admitted.ok ? { failure: singleFailure(400, ErrorReason.INVALID_ARGUMENT, planned.errors[0]?.message ?? 'invalid request'), rateLimit: admitted.rateLimit } : admitted;
          }
          if ('plan' in outcome) ctx.admission = outcome;
          else {
            ctx.refusal = outcome;
            throw new GraphQLError(outcome.failure.errors[0]?.message ?? 'request refused', { extensions: { code: outcome.failure.status } });
          }
        },
      };
    },
  };
}
