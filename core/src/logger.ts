import { type DestinationStream, type Logger, type LoggerOptions, pino } from 'pino';
import type { LogLevel } from './config.js';

export type { Logger } from 'pino';

/**
 * JSON logs on stdout (pino). Each call logs through a child carrying its `requestId`; secrets
 * (the service token, cookies, authorization metadata) are redacted if they ever reach a log call.
 */
export function createLogger(level: LogLevel = 'info', destination?: DestinationStream): Logger {
  const options: LoggerOptions = {
    level,
    base: { service: 'retail-core' },
    timestamp: pino.stdTimeFunctions.isoTime,
    redact: { paths: ['serviceToken', 'authorization', '*.authorization', 'cookie', '*.cookie', 'config.serviceToken', 'config.reviewsSessionCookie'], censor: '[redacted]' },
    formatters: { level: (label: string) => ({ level: label }) },
  };
  return destination ? pino(options, destination) : pino(options);
}
