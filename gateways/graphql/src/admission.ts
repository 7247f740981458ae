/**
 * Admission, in Apollo's `didResolveOperation` (parsed and validated, nothing run yet): plan the
 * operation, then scope, rate limit, parameter shape and one hold for every metered call, in
 * docs/contract.md's order; a request of usage history reads alone takes its token without a hold. A refusal is left on the context (settlement answers it) and stops Apollo.
 */
import type { ApolloServerPlugin } from '@apollo/server';
import { ErrorReason } from '@retail/contract';
import { type Refusal, admitCall, admitFree, admitRead, chargedOperations, settleHold, singleFailure } from '@retail/gateway-shared';
import type { Meter } from '@retail/metering/api';
import type { Admission, GraphqlContext } from './context.js';
import { GraphQLError } from './graphql.js';
import { type PlanLimits, type PlanResult, planRequest } from './plan.js';

async function admit(meter: Meter, ctx: GraphqlContext, planned: PlanResult): Promise<Refusal | Admission> {
  if (planned.ok && planned.plan.calls.length === 0 && planned.plan.usageReads > 0) {
    // Usage history alone: no unit, but one token, as a request of lookups takes (each read is a
    // query of the record); the fields' own 400s answer when they run, after this.
    const read = await admitRead(meter, { headers: ctx.headers, key: ctx.key, iface: 'graphql' });
    return read.ok ? { plan: planned.plan, rateLimit: read.rateLimit, read: read.read } : read;
  }
  if (planned.ok && planned.plan.calls.length === 0) {
    // Free requests (introspection, `__typename`) still need a valid key.
    const free = await admitFree(meter, ctx.key, 'graphql');
    return free.ok ? { plan: planned.plan, rateLimit: free.rateLimit } : free;
  }
  // A plan's 400s answer after scope (403) and rate limit (429), holding nothing. A free operation
  // (managing watches, reading events) holds no unit but is admitted all the same: key, scope, rate limit.
  const operations = (planned.ok ? planned.plan.calls.map((c) => c.operation) : planned.operations).flatMap(chargedOperations);
  // A request counts once against the rate limit, or as its batch's lookups when it has more (docs/graphql.md).
  const rateCost = Math.max(1, planned.ok ? planned.plan.calls.filter((c) => c.batched).length : 1);
  const admitted = await admitCall(meter, { headers: ctx.headers, iface: 'graphql', operations, shapeErrors: planned.ok ? [] : planned.errors, requestId: ctx.requestId, rateCost });
  if (!admitted.ok) return admitted;
  if (planned.ok) {
    // Usage reads beside lookups ride on the request's token (it counts once against the rate limit).
    const read = planned.plan.usageReads > 0 ? { accountId: admitted.hold.accountId, keyId: admitted.hold.keyId, rateLimit: admitted.rateLimit } : undefined;
    return { plan: planned.plan, hold: admitted.hold, rateLimit: admitted.rateLimit, read };
  }
  await settleHold(meter, admitted.hold, []); // not expected: shape errors hold nothing
  return { failure: singleFailure(400, ErrorReason.INVALID_ARGUMENT, planned.errors[0]?.message ?? 'invalid request'), rateLimit: admitted.rateLimit };
}

export function admissionPlugin(meter: Meter, limits: PlanLimits): ApolloServerPlugin<GraphqlContext> {
  return {
    async requestDidStart() {
      return {
        async didResolveOperation({ contextValue: ctx, document, request, schema }) {
          const outcome = await admit(meter, ctx, planRequest(schema, { document, operationName: request.operationName, variables: request.variables }, limits));
          if ('plan' in outcome) ctx.state.admission = outcome;
          else {
            ctx.state.refusal = outcome;
            const { status, errors } = outcome.failure;
            throw new GraphQLError(errors[0]?.message ?? 'request refused', { extensions: { code: status, http: { status } } });
          }
        },
      };
    },
  };
}
