/**
 * How every deployable reads its environment and reports a bad one (docs/architecture.md, Decisions:
 * zod for every environment). Each package declares its own variables with zod; what they share is
 * here: a blank variable counts as unset, and a bad environment stops the process with one line per
 * bad variable that names it and never echoes its value (tokens, secrets and proxy credentials live
 * there), gathered in one error its entry point prints without a stack trace.
 */

/** A zod `preprocess` step: an empty or all-blank value is treated as not set, so its default applies. */
export const blankToUndefined = (value: unknown): unknown => (typeof value === 'string' && value.trim() === '' ? undefined : value);

/** One problem a schema found: the variable's path and what is wrong with it (a zod issue). */
export interface EnvironmentIssue {
  readonly path: readonly PropertyKey[];
  readonly message: string;
}

/** "PORT must be a port number"; a problem that belongs to no one variable names the environment. */
export function environmentProblems(issues: readonly EnvironmentIssue[]): string[] {
  return issues.map((issue) => `${issue.path.join('.') || '(environment)'} ${issue.message}`);
}

/** Every problem of one part's environment, listed; each package subclasses it under its own name. */
export class EnvironmentError extends Error {
  constructor(
    part: string,
    readonly problems: readonly string[],
  ) {
    super(`invalid ${part} configuration:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
    this.name = new.target.name;
  }
}
