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

/** A zod `safeParse` result, as far as reading an environment needs it (this package does not depend on zod). */
export type SchemaResult<Variables> =
  | { readonly success: true; readonly data: Variables }
  | { readonly success: false; readonly error: { readonly issues: readonly EnvironmentIssue[] } };

type Readers = Readonly<Record<string, () => unknown>>;

/** What readEnvironment returns: the schema's variables, and each reader's settings under its name. */
export type EnvironmentSettings<Variables, Read extends Readers> = { readonly variables: Variables } & { readonly [Name in keyof Read]: ReturnType<Read[Name]> };

/**
 * A deployable's settings: its own variables (its schema's result) and the settings of the modules
 * that read their own variables (`readers`, each called once). Every problem of all of them goes into
 * one error, `fail(problems)`, so a bad environment is fixed in one pass: a reader's EnvironmentError
 * gives its list, any other error its message (those readers name their variable in it).
 */
export function readEnvironment<Variables, Read extends Readers>(
  parsed: SchemaResult<Variables>,
  readers: Read,
  fail: (problems: string[]) => EnvironmentError,
): EnvironmentSettings<Variables, Read> {
  const problems = parsed.success ? [] : environmentProblems(parsed.error.issues);
  const settings: Record<string, unknown> = {};
  for (const [name, read] of Object.entries(readers)) {
    try {
      settings[name] = read();
    } catch (error) {
      problems.push(...(error instanceof EnvironmentError ? error.problems : [(error as Error).message]));
    }
  }
  if (!parsed.success || problems.length > 0) throw fail(problems);
  return { ...settings, variables: parsed.data } as EnvironmentSettings<Variables, Read>;
}
