/** The gateways' structured logger (pino, JSON lines on stdout), named by deployment. */
import { context, trace } from '@opentelemetry/api';
import { type DestinationStream, type Logger, pino } from 'pino';

export type GatewayLogger = Logger;

export function createGatewayLogger(
  service: string,
  level = process.env.LOG_LEVEL || 'info',
  destination?: DestinationStream,
): GatewayLogger {
  const options = {
    level,
    base: { service },
    // Every line written inside a request carries its trace id, so logs and traces join up.
    mixin() {
      const span = trace.getSpan(context.active())?.spanContext();
      return span && trace.isSpanContextValid(span) ? { traceId: span.traceId } : {};
    },
  };
  return destination ? pino(options, destination) : pino(options);
}
