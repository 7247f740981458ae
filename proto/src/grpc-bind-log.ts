/**
 * grpc-js's log without its own line for a port it could not bind (`E No address added out of total 1
 * resolved`): the same failure comes back as the bind's error, which the entry point turns into one
 * line naming the port's variable (start-failure.ts), so grpc-js's line above it only said it twice.
 * Every other line keeps grpc-js's own format (`E `/`I `/`D ` and the text, on stderr). Given to
 * grpc-js's public `setLogger` by the core's and the watcher's servers; typed by what grpc-js calls, so
 * the contract needs no grpc-js of its own.
 */
type LogLine = (message?: unknown, ...rest: unknown[]) => void;

export interface GrpcLogger {
  error: LogLine;
  info: LogLine;
  debug: LogLine;
}

const BIND_FAILURE = /^No address added out of total \d+ resolved/;

export const grpcLoggerWithoutBindFailure: GrpcLogger = {
  error: (message, ...rest) => {
    if (typeof message === 'string' && BIND_FAILURE.test(message)) return;
    console.error(`E ${String(message)}`, ...rest);
  },
  info: (message, ...rest) => console.error(`I ${String(message)}`, ...rest),
  debug: (message, ...rest) => console.error(`D ${String(message)}`, ...rest),
};
