import { EnvironmentError } from '@retail/contract/environment';

/**
 * Runs `npm start`'s (or the demo's) start-up; a bad environment in any part it composes (app, core,
 * console) prints one line per problem and exits 2, as each deployment alone does: a stack trace
 * would bury the variable's name.
 */
export async function exitOnBadEnvironment<T>(start: () => T | Promise<T>): Promise<T> {
  try {
    return await start();
  } catch (error) {
    if (!(error instanceof EnvironmentError)) throw error;
    process.stderr.write(`${error.message}\n`);
    process.exit(2);
  }
}
