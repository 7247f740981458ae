/**
 * Exit codes by class of outcome, so a script can tell its own mistake from the service's: 2 for a
 * command line the CLI refuses, 3 for a request the service refused (4xx), 4 for a failure of the
 * service (5xx), 5 when no HTTP answer came at all (refused, DNS, timeout). In many mode the worst
 * item decides (5 > 4 > 3).
 */
export const EXIT = {
  ok: 0,
  usage: 2,
  clientError: 3,
  serverError: 4,
  unreachable: 5,
} as const;

export type ExitCode = (typeof EXIT)[keyof typeof EXIT];

/** The exit code of one HTTP status. */
export function exitCodeOfStatus(status: number): ExitCode {
  if (status < 400) return EXIT.ok;
  return status < 500 ? EXIT.clientError : EXIT.serverError;
}

/** The exit code of a run of several outcomes: the most severe. */
export function worstExitCode(codes: Iterable<ExitCode>): ExitCode {
  let worst: ExitCode = EXIT.ok;
  for (const code of codes) if (code > worst) worst = code;
  return worst;
}

/** A command line the CLI refuses (unknown flag, bad value of a CLI option): one line, exit 2. */
export class UsageError extends Error {
  override readonly name = 'UsageError';
}
