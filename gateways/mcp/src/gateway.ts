/**
 * `POST /api/mcp`: MCP Streamable HTTP, stateless (a new transport per request on a pooled Server,
 * no session: server.ts), JSON responses. Every message needs a valid key (`API-KEY`, `SERVICE-API-KEY`,
 * `X-API-KEY` or Bearer); `initialize`, `tools/list` and `ping` are free, `tools/call` is admitted and
 * settled like a metered call (rate limited; units only for a metered operation).
 * Request-level refusals (400 conflicting credentials, 401, 402, 403, 429) keep their HTTP status,
 * carried over the SDK's 200 by rewriting the status line; protocol misuse keeps JSON-RPC's codes.
 */
import express, { type Request, type Response } from 'express';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { type BodyRefusal, type CoreClient, admitFree, createCors, denialFailure, jsonBody, meteringHeaders, requestIdFrom } from '@retail/gateway-shared';
import type { Meter, Metering } from '@retail/metering/api';
import { RequestLevelError, envelope, jsonRpcError, refusalError } from './rpc-errors.js';
import { createServerPool } from './server.js';
import { DEFAULT_TOOLSETS, type ToolsetName, parseToolsets } from './toolsets.js';

export const MCP_PATH = '/api/mcp';

export interface McpGatewayOptions {
  readonly core: CoreClient;
  readonly metering: Pick<Metering, 'meter'>;
  readonly bodyLimitBytes?: number;
  /** CORS_ORIGINS: origins allowed to call from a browser (`*` for any); empty keeps CORS closed. */
  readonly corsOrigins?: readonly string[];
  /** MCP_TOOLSETS: the toolsets `tools/list` answers when the URL names none (default lookup, search). */
  readonly toolsets?: readonly ToolsetName[];
  /** MCP_OUTPUT_SCHEMAS: whether `tools/list` carries output schemas when the URL does not say (default false). */
  readonly outputSchemas?: boolean;
}

type ListingChoice = { ok: true; toolsets: readonly ToolsetName[]; outputSchemas: boolean } | { ok: false; message: string; parameter: string };

/**
 * `?toolsets=lookup,watches` and `?outputSchemas=true` on the MCP URL, over the operator's defaults.
 * Read from the URL itself: an app may turn express's query parser off (the gateways' apps do).
 */
function listingOf(req: Request, options: McpGatewayOptions): ListingChoice {
  const query = new URL(req.originalUrl, 'http://mcp.invalid').searchParams;
  const toolsets = parseToolsets(query.get('toolsets') ?? undefined, options.toolsets ?? DEFAULT_TOOLSETS);
  if (!toolsets.ok) return { ok: false, message: toolsets.message, parameter: 'toolsets' };
  const schemas = query.get('outputSchemas') ?? undefined;
  if (schemas !== undefined && schemas !== 'true' && schemas !== 'false') return { ok: false, message: 'outputSchemas must be true or false', parameter: 'outputSchemas' };
  return { ok: true, toolsets: toolsets.toolsets, outputSchemas: schemas === undefined ? options.outputSchemas ?? false : schemas === 'true' };
}

function firstId(body: unknown): unknown {
  const first = Array.isArray(body) ? body[0] : body;
  return first && typeof first === 'object' && 'id' in first ? (first as { id: unknown }).id : null;
}

function methodsOf(body: unknown): string[] {
  const messages = Array.isArray(body) ? body : [body];
  return messages.map((m) => (m && typeof m === 'object' && typeof (m as { method?: unknown }).method === 'string' ? (m as { method: string }).method : ''));
}

/** The `arguments` object of the tools/call message with this id, as parsed from the body. */
function rawArguments(body: unknown, id: string | number): Record<string, unknown> | undefined {
  const messages: unknown[] = Array.isArray(body) ? body : [body];
  for (const m of messages) {
    if (!m || typeof m !== 'object') continue;
    const message = m as { id?: unknown; method?: unknown; params?: { arguments?: unknown } };
    if (message.id !== id || message.method !== 'tools/call') continue;
    const args = message.params?.arguments;
    return args && typeof args === 'object' && !Array.isArray(args) ? (args as Record<string, unknown>) : undefined;
  }
  return undefined;
}

const ACCEPT_BOTH = 'application/json, text/event-stream';

/**
 * A client that states no preference (no Accept, or `*\/*`, as curl sends) gets JSON. A client
 * that names other types still meets the SDK's 406. The SDK reads rawHeaders, so both change.
 */
function defaultAccept(req: Request): void {
  const accept = req.headers.accept;
  if (accept !== undefined && accept.trim() !== '*/*') return;
  req.headers.accept = ACCEPT_BOTH;
  const at = req.rawHeaders.findIndex((name, i) => i % 2 === 0 && name.toLowerCase() === 'accept');
  if (at >= 0) req.rawHeaders[at + 1] = ACCEPT_BOTH;
  else req.rawHeaders.push('Accept', ACCEPT_BOTH);
}

/**
 * A tools/call whose params are not `{ name: string, arguments?: object }` is JSON-RPC's -32602.
 * (The SDK would answer -32603 "internal error" with its schema library's dump.)
 */
function toolsCallMisuse(body: unknown): { id: unknown; message: string } | undefined {
  if (!body || typeof body !== 'object' || Array.isArray(body)) return undefined;
  const { method, params, id } = body as { method?: unknown; params?: unknown; id?: unknown };
  if (method !== 'tools/call' || id === undefined) return undefined;
  if (!params || typeof params !== 'object' || Array.isArray(params)) return { id, message: 'params must be an object with the tool name' };
  const { name, arguments: args } = params as { name?: unknown; arguments?: unknown };
  if (typeof name !== 'string') return { id, message: 'params.name must be the tool name' };
  if (args !== undefined && (args === null || typeof args !== 'object' || Array.isArray(args))) return { id, message: 'params.arguments must be an object' };
  return undefined;
}

/** The shared body parser's refusals in JSON-RPC's words: too large is an invalid request, anything else a parse error. */
function refuseBody(res: Response, { status, message }: BodyRefusal): void {
  if (status === 413) res.status(413).json(jsonRpcError(null, -32600, message, envelope([{ code: 413, message }])));
  else res.status(400).json(jsonRpcError(null, -32700, 'Parse error: the body is not valid JSON'));
}

export function createMcpGateway(options: McpGatewayOptions): express.Router {
  const { core } = options;
  const meter: Meter = options.metering.meter;
  const servers = createServerPool();

  async function handle(req: Request, res: Response): Promise<void> {
    const requestId = requestIdFrom(req.headers);
    let refusal: RequestLevelError | undefined;
    const refuse = (error: RequestLevelError, retryAfterSeconds?: number): void => {
      const headers = meteringHeaders(meter, { requestId, charged: 0, ...(retryAfterSeconds !== undefined ? { retryAfterSeconds } : {}) });
      res.status(error.status).set(headers).json(jsonRpcError(firstId(req.body), error.code, error.message, error.data));
    };

    const listing = listingOf(req, options);
    if (!listing.ok) {
      res.status(400).json(jsonRpcError(firstId(req.body), -32600, listing.message, envelope([{ code: 400, message: listing.message, path: ['query', listing.parameter] }])));
      return;
    }
    const misuse = toolsCallMisuse(req.body);
    if (misuse) {
      res.status(200).json(jsonRpcError(misuse.id, -32602, `Invalid params: ${misuse.message}`));
      return;
    }
    const credentials = meter.readCredentials(req.headers, 'mcp');
    if (!credentials.ok) return refuse(refusalError(denialFailure(credentials.denial)), credentials.denial.retryAfterSeconds);
    let authenticated = false;
    const authenticateFree = async (): Promise<void> => {
      if (authenticated) return;
      const free = await admitFree(meter, credentials.key, 'mcp');
      if (!free.ok) {
        refusal = refusalError(free.failure);
        throw refusal;
      }
      authenticated = true;
    };
    // Anything but tools/call (initialize, tools/list, ping, notifications) is free but needs a valid key;
    // tools/call checks the key in its own admit step, after the SDK has validated the message.
    if (methodsOf(req.body).some((m) => m !== 'tools/call')) {
      try {
        await authenticateFree();
      } catch (err) {
        if (err instanceof RequestLevelError) return refuse(err);
        throw err;
      }
    }

    const lease = servers.acquire({
      core,
      toolsets: listing.toolsets,
      outputSchemas: listing.outputSchemas,
      meter,
      headers: req.headers,
      setHeaders: (headers) => {
        if (!res.headersSent) res.set(headers);
      },
      authenticateFree,
      rawArguments: (id) => rawArguments(req.body, id),
      onRefusal: (error) => {
        refusal = error;
      },
    });
    // The SDK answers every JSON-RPC response with HTTP 200; a request-level refusal rewrites it.
    const writeHead = res.writeHead.bind(res) as (...args: unknown[]) => Response;
    res.writeHead = ((status: number, ...rest: unknown[]) => writeHead(status === 200 && refusal ? refusal.status : status, ...rest)) as typeof res.writeHead;
    const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
    res.on('close', () => void transport.close().finally(() => lease.release()));
    defaultAccept(req);
    await lease.server.connect(transport);
    await transport.handleRequest(req, res, req.body);
  }

  const router = express.Router();
  router.use(MCP_PATH, createCors({
      origins: options.corsOrigins ?? [],
      methods: ['POST'],
      extraAllowedHeaders: ['SERVICE-API-KEY', 'X-API-KEY', 'Accept', 'Mcp-Protocol-Version', 'Mcp-Session-Id', 'Last-Event-ID'],
      extraExposedHeaders: ['Mcp-Session-Id'],
    }));
  router.post(MCP_PATH, jsonBody(refuseBody, options.bodyLimitBytes), (req, res, next) => void handle(req, res).catch(next));
  router.all(MCP_PATH, (_req, res) => {
    res.status(405).set('Allow', 'POST').json(jsonRpcError(null, -32000, 'Method not allowed: use POST (stateless Streamable HTTP, no SSE stream or session)'));
  });
  return router;
}
