/**
 * The console's operator role (docs/console.md, "Operator view"): who may look at the watcher's page
 * archive in the console. A flag on the console user, changed only here, by the operator's admin CLI
 * (admin/operators-command.ts): never by sign-up, never by a request to the console. Each change is
 * written with its audit entry (the store does both together).
 *
 * The console reads the user from the store on every operator request (createRequireOperator in
 * operator-routes.ts), not the role from the session, so a revocation holds from the next request on.
 */
import type { ConsoleUser, OperatorEvent, UserStore } from './store.js';
import { normaliseEmail } from './validation.js';

export type RoleChange =
  | { readonly outcome: 'changed'; readonly event: OperatorEvent }
  | { readonly outcome: 'unchanged'; readonly user: ConsoleUser }
  | { readonly outcome: 'no-user' };

/** Grants (`operator` true) or revokes the role of the user with `email`; `actor` says who did it. */
export async function setOperatorRole(
  users: UserStore,
  change: { readonly email: string; readonly operator: boolean; readonly actor: string; readonly at: Date },
): Promise<RoleChange> {
  const user = await users.findUserByEmail(normaliseEmail(change.email));
  if (!user) return { outcome: 'no-user' };
  if ((user.operator === true) === change.operator) return { outcome: 'unchanged', user };
  const event: OperatorEvent = {
    at: change.at.toISOString(),
    userId: user.userId,
    email: user.email,
    action: change.operator ? 'grant' : 'revoke',
    actor: change.actor,
  };
  await users.setOperator(event);
  return { outcome: 'changed', event };
}

/** Whether the user, as just read from the store (never from the session), holds the role. */
export const isOperator = (user: ConsoleUser): boolean => user.operator === true;
