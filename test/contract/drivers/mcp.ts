/**
 * MCP driver: one stateless JSON-RPC `tools/call` per call over Streamable HTTP (no session, as
 * docs/contract.md allows). Request-level refusals are an HTTP status with a JSON-RPC error whose
 * `data` is the envelope; operation errors are `isError` results carrying it. Every result is
 * checked against the tool's published outputSchema (from `tools/list`) and its text block.
 */
import type { WireObject } from '@retail/contract';
import { registryOperation } from '@retail/gateway-shared';
import { DEFAULT_LIST_LIMIT, compactRecord, createMcpGateway } from '@retail/mcp';
import { createSchemaValidator } from '../../harness/json-schema.js';
import type { Driver, DriverFactory, EnvelopeEntry } from '../driver.js';

const HEADERS = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };

type RpcBody = {
  result?: { structuredContent?: Record<string, unknown>; content?: Array<{ type: string; text?: string }>; isError?: boolean; _meta?: { unitsCharged?: unknown } };
  error?: { code?: unknown; message?: unknown; data?: { success?: unknown; errors?: EnvelopeEntry[] } };
};

export const mcpDriver: DriverFactory = {
  name: 'mcp',
  mount: (app, deps) => {
    app.use(createMcpGateway({ core: deps.core, metering: deps.metering }));
  },
  async create(stack) {
    const url = `${stack.baseUrl}/api/mcp`;
    const { accountId } = await stack.metering.admin.createAccount({ units: 0, plan: 'unlimited' });
    const listKey = (await stack.metering.admin.createKey(accountId)).key;
    // Every tool with its output schema (the default list has neither all tools nor output schemas).
    const list = (await (await fetch(`${url}?toolsets=all&outputSchemas=true`, { method: 'POST', headers: { ...HEADERS, 'API-KEY': listKey }, body: JSON.stringify({ jsonrpc: '2.0', id: 0, method: 'tools/list' }) })).json()) as {
      result: { tools: Array<{ name: string; outputSchema: Record<string, unknown> }> };
    };
    // With the formats, as an MCP client that checks them would (the SDK's client loads ajv-formats):
    // a `date-time` field in another form is a violation, not a warning on stderr.
    const ajv = createSchemaValidator();
    const validators = new Map(list.result.tools.map((t) => [t.name, ajv.compile(t.outputSchema)]));
    let nextId = 1;

    const driver: Driver = {
      name: 'mcp',
      answerOf: (opName, data) => compactRecord(registryOperation(opName).response, data as WireObject, { limit: DEFAULT_LIST_LIMIT, offset: 0 }).record,
      async call(opName, params, auth) {
        const op = registryOperation(opName);
        const id = nextId++;
        const headers = { ...HEADERS, ...(auth.key !== undefined ? { 'API-KEY': auth.key } : {}), ...auth.headers };
        const response = await fetch(url, {
          method: 'POST',
          headers,
          body: JSON.stringify({ jsonrpc: '2.0', id, method: 'tools/call', params: { name: op.mcpTool, arguments: params } }),
        });
        const violations: string[] = [];
        const text = await response.text();
        let body: RpcBody = {};
        try {
          body = JSON.parse(text) as RpcBody;
        } catch {
          violations.push(`body is not JSON: ${text.slice(0, 80)}`);
        }
        if (!response.headers.get('x-request-id')) violations.push('no X-Request-Id');
        const base = { headers: response.headers, violations };
        if (body.error) {
          // Request-level refusal: HTTP status plus a JSON-RPC error carrying the envelope.
          const envelope = body.error.data;
          if (response.status === 200) violations.push(`JSON-RPC error ${String(body.error.code)} on HTTP 200: ${String(body.error.message)}`);
          if (envelope?.success !== false) violations.push('JSON-RPC error without the envelope in data');
          return { ...base, status: response.status, errors: envelope?.errors ?? [], unitsCharged: Number(response.headers.get('x-units-charged') ?? 0) };
        }
        const result = body.result;
        if (!result?.structuredContent) {
          violations.push(`no structuredContent (HTTP ${response.status})`);
          return { ...base, status: response.status === 200 ? 500 : response.status, unitsCharged: 0 };
        }
        const content = result.structuredContent;
        // An answer's text is a summary line, then the structuredContent JSON; an error's is the envelope JSON alone.
        const block = result.content?.length === 1 ? result.content[0]?.text ?? '' : '';
        const json = result.isError ? block : block.slice(block.indexOf('\n') + 1);
        if (json !== JSON.stringify(content) || (!result.isError && !block.includes('\n'))) violations.push('the text block is not a summary line and the structuredContent JSON');
        const validate = validators.get(op.mcpTool);
        if (validate && !validate(content)) violations.push(`structuredContent violates outputSchema: ${ajv.errorsText(validate.errors)}`);
        const units = typeof result._meta?.unitsCharged === 'number' ? result._meta.unitsCharged : 0;
        if (result.isError) {
          const errors = (content.errors ?? []) as EnvelopeEntry[];
          return { ...base, status: errors[0]?.code ?? 500, errors, unitsCharged: units };
        }
        return { ...base, status: 200, data: content.data as Record<string, unknown>, unitsCharged: units };
      },
    };
    return driver;
  },
};
