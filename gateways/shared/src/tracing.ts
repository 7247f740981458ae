/**
 * Tracing seams of the gateways, on the OpenTelemetry API only (no-ops without a registered SDK):
 * a SERVER span per HTTP request, continuing the client's W3C trace context, and a CLIENT span per
 * core call, whose context the core client's interceptor sends on as `traceparent`.
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

/** Runs a core call inside a CLIENT span named like the RPC. */
export async function traceCoreCall<T>(rpc: string, call: (span: Span) => Promise<T>): Promise<T> {
  return tracer.startActiveSpan(
    `retail.v1.RetailService/${rpc}`,
    { kind: SpanKind.CLIENT, attributes: { 'rpc.system': 'grpc', 'rpc.service': 'retail.v1.RetailService', 'rpc.method': rpc } },
    async (span) => {
      try {
        return await call(span);
      } catch (error) {
        span.setStatus({ code: SpanStatusCode.ERROR, message: error instanceof Error ? error.message : String(error) });
        throw error;
      } finally {
        span.end();
      }
    },
  );
}

/** The RPC a core-client span is named after. */
interface TracedMethod {
  readonly name: string;
  readonly parent: { readonly typeName: string };
}

/** A server-streaming call inside a CLIENT span that ends with the stream; `open` runs in the span's context. */
export async function* traceCoreStream<T>(method: TracedMethod, open: () => AsyncIterable<T>): AsyncGenerator<T> {
  const span = tracer.startSpan(`${method.parent.typeName}/${method.name}`, {
    kind: SpanKind.CLIENT,
    attributes: { 'rpc.system': 'grpc', 'rpc.service': method.parent.typeName, 'rpc.method': method.name },
  });
  try {
    yield* context.with(trace.setSpan(context.active(), span), open);
  } catch (error) {
    span.setStatus({ code: SpanStatusCode.ERROR, message: error instanceof Error ? error.message : String(error) });
    throw error;
  } finally {
    span.end();
  }
}

/** Everything a gateway app mounts first: the request's span, its metrics and its access log line. */
export function observeRequests(accessLog: GatewayLogger): RequestHandler[] {
  return [traceRequests(), measureRequests(), logAccess(accessLog)];
}
