/**
 * Tracing seams of the core, on the OpenTelemetry API only: without a registered SDK every call here
 * is a no-op, so the core never depends on how (or whether) traces are exported.
 */
import { type Attributes, type Context, type Span, SpanKind, SpanStatusCode, context, propagation, trace } from '@opentelemetry/api';
import type { Metadata } from '@grpc/grpc-js';

export const tracer = trace.getTracer('retail-core');

/** W3C trace context (traceparent, tracestate, baggage) as the caller sent it in gRPC metadata. */
export function contextFromMetadata(metadata: Metadata): Context {
  return propagation.extract(context.active(), metadata, {
    keys: (carrier) => Object.keys(carrier.getMap()),
    get: (carrier, key) => {
      const value = carrier.get(key)[0];
      return typeof value === 'string' ? value : undefined;
    },
  });
}

/**
 * Runs `fn` in a new active span and ends it when `fn` settles; a thrown error marks the span.
 * `failed` lets the caller mark an outcome that is a value rather than an exception.
 */
export function inSpan<T>(
  name: string,
  options: { kind?: SpanKind; attributes?: Attributes; parent?: Context; failed?: (result: T) => string | undefined },
  fn: (span: Span) => Promise<T>,
): Promise<T> {
  const parent = options.parent ?? context.active();
  return tracer.startActiveSpan(name, { kind: options.kind ?? SpanKind.INTERNAL, attributes: options.attributes }, parent, async (span) => {
    try {
      const result = await fn(span);
      const failure = options.failed?.(result);
      if (failure) span.setStatus({ code: SpanStatusCode.ERROR, message: failure });
      return result;
    } catch (error) {
      span.setStatus({ code: SpanStatusCode.ERROR, message: error instanceof Error ? error.message : String(error) });
      throw error;
    } finally {
      span.end();
    }
  });
}

/** The active trace id for log lines, when a span is recording. */
export function activeTraceId(): string | undefined {
  const spanContext = trace.getSpan(context.active())?.spanContext();
  return spanContext && trace.isSpanContextValid(spanContext) ? spanContext.traceId : undefined;
}

export { SpanKind };
