/** The gateways' structured logger (pino, JSON lines on stdout), named by deployment. */
import { type Logger, pino } from 'pino';

export type GatewayLogger = Logger;

export function createGatewayLogger(service: string, level = process.env.LOG_LEVEL || 'info'): GatewayLogger {
  return pino({ level, base: { service } });
}
