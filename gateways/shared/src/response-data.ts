/**
 * The `data` of an operation's response as every interface renders it: the contract's wire
 * renderer, with one override, declared here once: a BatchItemResult (a bulk job's result, in
 * ListJobResults' page) is the batch entry `{index, status, data}` / `{index, status, errors}` of
 * job-results.ts, not the proto's `{index, product: {...}}`. REST pages, GraphQL and MCP all render
 * through executeOperation, so the shape is fixed here for all three; MCP's records are compact
 * (bulky fields left out), as the batch tool's are. The schemas follow the same rule (schemas.ts).
 */
import type { DescMessage, Message } from '@bufbuild/protobuf';
import { type BatchItemResult, BatchItemResultSchema, type WireObject, type WireOverrides, type WireValue, renderData } from '@retail/contract';
import { jobResultEntry } from './job-results.js';
import type { ParameterStyle } from './parameters.js';

const entryOverrides = (style: ParameterStyle): WireOverrides =>
  new Map([[BatchItemResultSchema.typeName, (message: Message) => jobResultEntry(message as BatchItemResult, style, style === 'mcp') as unknown as WireValue]]);

const OVERRIDES: Record<ParameterStyle, WireOverrides> = { rest: entryOverrides('rest'), graphql: entryOverrides('graphql'), mcp: entryOverrides('mcp') };

function holds(desc: DescMessage, seen: Set<DescMessage>): boolean {
  if (desc.typeName === BatchItemResultSchema.typeName) return true;
  if (seen.has(desc)) return false;
  seen.add(desc);
  return desc.fields.some((f) => f.message !== undefined && holds(f.message, seen));
}

const carriers = new WeakMap<DescMessage, boolean>();

/** Whether a response holds a BatchItemResult at any depth (found once per response type). */
export function carriesJobResults(desc: DescMessage): boolean {
  let carries = carriers.get(desc);
  if (carries === undefined) {
    carries = holds(desc, new Set());
    carriers.set(desc, carries);
  }
  return carries;
}

/** An operation response's `data` for `style`, with job results as batch entries. */
export function renderResponseData(response: DescMessage, message: Message, style: ParameterStyle): WireObject {
  return renderData(response, message, carriesJobResults(response) ? OVERRIDES[style] : undefined);
}
