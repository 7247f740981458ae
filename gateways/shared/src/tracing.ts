/**
 * Tracing seams of the gateways, on the OpenTelemetry API only (no-ops without a registered SDK):
 * a SERVER span per HTTP request, continuing the client's W3C trace context, and a CLIENT span per
 * core call, whose context the core client sends on as `traceparent`.
 */
import type { IncomingHttpHeaders } from 'node:http';
import { type Span, SpanKind, SpanStatusCode, ROOT_CONTEXT, context, propagation, trace } from '@opentelemetry/api';
import type { RequestHandler } from 'express';
import { logAccess } from './access-log.js';
import type { GatewayLogger } from './logger.js';
import { measureRequests } from './metrics.js';

const tracer = trace.getTracer('retail-gateway');

const headerGetter = {
  keys: (carrier: IncomingHttpHeaders) => Object.keys(carrier),
  get: (carrier: IncomingHttpHeaders, key: string) => {
    const value = carrier[key];
    return Array.isArray(value) ? value[0] : value;
  },
};

/** Express middleware: the request runs inside a SERVER span named by method and path. */
export function traceRequests(): RequestHandler {
  return (req, res, next) => {
    const parent = propagation.extract(ROOT_CONTEXT, req.headers, headerGetter);
    // Paths of this API are fixed (no ids in paths), so the span name stays low-cardinality.
    const span = tracer.startSpan(`${req.method} ${req.path}`, {
      kind: SpanKind.SERVER,
      attributes: { 'http.request.method': req.method, 'url.path': req.path },
    }, parent);
    let ended = false;
    const end = () => {
      if (ended) return;
      ended = true;
      span.setAttribute('http.response.status_code', res.statusCode);
      if (res.statusCode >= 500) span.setStatus({ code: SpanStatusCode.ERROR });
      span.end();
    };
    res.once('finish', end);
    res.once('close', end);
    context.with(trace.setSpan(parent, span), next);
  };
}

/** The RPC a core-client span is named after. */
interface TracedMethod {
  readonly name: string;
  readonly parent: { readonly typeName: string };
}

const clientSpanOptions = (method: TracedMethod) => ({
  kind: SpanKind.CLIENT,
  attributes: { 'rpc.system': 'grpc', 'rpc.service': method.parent.typeName, 'rpc.method': method.name },
});

const failed = (span: Span, error: unknown) => span.setStatus({ code: SpanStatusCode.ERROR, message: error instanceof Error ? error.message : String(error) });

/** Runs a core call inside a CLIENT span named like the RPC (`retail.v1.RetailService/GetProduct`). */
export async function traceCoreCall<T>(method: TracedMethod, call: (span: Span) => Promise<T>): Promise<T> {
  return tracer.startActiveSpan(`${method.parent.typeName}/${method.name}`, clientSpanOptions(method), async (span) => {
    try {
      return await call(span);
    } catch (error) {
      failed(span, error);
      throw error;
    } finally {
      span.end();
    }
  });
}

/** A server-streaming call inside a CLIENT span that ends with the stream; `open` runs in the span's context. */
export async function* traceCoreStream<T>(method: TracedMethod, open: () => AsyncIterable<T>): AsyncGenerator<T> {
  const span = tracer.startSpan(`${method.parent.typeName}/${method.name}`, clientSpanOptions(method));
  try {
    yield* context.with(trace.setSpan(context.active(), span), open);
  } catch (error) {
    failed(span, error);
    throw error;
  } finally {
    span.end();
  }
}

/** The RPC a core-client span is named after. */
interface TracedMethod {
  readonly name: string;
  readonly parent: { readonly typeName: string };
}

/** Everything a gateway app mounts first: the request's span, its metrics and its access log line. */
export function observeRequests(accessLog: GatewayLogger): RequestHandler[] {
  return [traceRequests(), measureRequests(), logAccess(accessLog)];
}
