/**
 * Tallies call outcomes for one account: what the billing checks compare (successes, units the
 * answers reported, statuses) and what the lead quotes.
 */
import type { CallOutcome } from './interface-calls.js';

export interface BillingTally {
  readonly calls: number;
  readonly successes: number;
  /** Sum of X-Units-Charged. */
  readonly headerUnits: number;
  /** Answers whose body reported a charge (extensions / _meta) different from the header. */
  readonly bodyHeaderMismatches: number;
  /** Answers without an X-Units-Charged header (metered responses always carry it). */
  readonly missingHeaders: number;
  /** Failures without the contract's error shape. */
  readonly malformedFailures: number;
  readonly statuses: Readonly<Record<number, number>>;
  /** Error codes reported, in status lines and inside bodies (GraphQL errors[], MCP results). */
  readonly errorCodes: Readonly<Record<number, number>>;
}

export function tally(outcomes: readonly CallOutcome[]): BillingTally {
  const statuses: Record<number, number> = {};
  const errorCodes: Record<number, number> = {};
  let successes = 0;
  let headerUnits = 0;
  let bodyHeaderMismatches = 0;
  let missingHeaders = 0;
  let malformedFailures = 0;
  for (const o of outcomes) {
    statuses[o.status] = (statuses[o.status] ?? 0) + 1;
    successes += o.succeeded;
    if (Number.isNaN(o.chargedHeader)) missingHeaders++;
    else headerUnits += o.chargedHeader;
    if (o.chargedInBody !== undefined && o.chargedInBody !== o.chargedHeader) bodyHeaderMismatches++;
    if (!o.wellFormed) malformedFailures++;
    for (const code of o.errorCodes) errorCodes[code] = (errorCodes[code] ?? 0) + 1;
  }
  return { calls: outcomes.length, successes, headerUnits, bodyHeaderMismatches, missingHeaders, malformedFailures, statuses, errorCodes };
}

/** Statuses outside `allowed`, with their counts (empty when every answer was allowed). */
export function unexpectedStatuses(t: BillingTally, allowed: readonly number[]): Record<number, number> {
  return Object.fromEntries(Object.entries(t.statuses).filter(([status]) => !allowed.includes(Number(status))));
}

/** Reported error codes outside `allowed` (a 500 inside a GraphQL 200 counts as much as a 500 status). */
export function unexpectedErrorCodes(t: BillingTally, allowed: readonly number[]): Record<number, number> {
  return Object.fromEntries(Object.entries(t.errorCodes).filter(([code]) => !allowed.includes(Number(code))));
}
