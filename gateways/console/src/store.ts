/**
 * Everything the console keeps between requests: users, sessions, invite codes and sign-in attempt
 * logs. Two implementations share this interface: memory (the embedded default) and Redis (the
 * ledger instance, keys under `console:`), so several console replicas share sessions and limits.
 *
 * Times are epoch milliseconds from the console's injectable clock, never the store's own.
 */

export interface ConsoleUser {
  readonly userId: string;
  /** Normalised (trimmed, lower-case); unique. */
  readonly email: string;
  /** `scrypt$N$r$p$salt$hash` (passwords.ts). */
  readonly passwordHash: string;
  /** The metering account this user owns. */
  readonly accountId: string;
  readonly createdAt: string;
  /**
   * May use the operator view (docs/console.md, "Operator view"). Set only by the admin CLI
   * (operator-role.ts); absent in users stored before the role existed, which means false.
   */
  readonly operator?: boolean;
}

/** One grant or revocation of the operator role: the audit trail, kept by the store. */
export interface OperatorEvent {
  /** ISO 8601. */
  readonly at: string;
  readonly userId: string;
  readonly email: string;
  readonly action: 'grant' | 'revoke';
  /** Who did it (`admin-cli:<os user>`). */
  readonly actor: string;
}

export interface SessionRecord {
  /** Absent for an anonymous session (one that only carries a CSRF token for sign-in/sign-up). */
  readonly userId?: string;
  readonly csrfToken: string;
  readonly createdAt: number;
  readonly expiresAt: number;
}

export interface UserStore {
  /** Claims `email` for `userId`; false when another user has it. Atomic. */
  reserveEmail(email: string, userId: string): Promise<boolean>;
  /** Undoes a reservation that did not lead to a user (only if still held by `userId`). */
  releaseEmail(email: string, userId: string): Promise<void>;
  saveUser(user: ConsoleUser): Promise<void>;
  getUser(userId: string): Promise<ConsoleUser | undefined>;
  findUserByEmail(email: string): Promise<ConsoleUser | undefined>;

  /**
   * Sets the user's operator flag and appends `event` (whose action says which way) to the audit
   * trail, together. The user must exist (callers find it first).
   */
  setOperator(event: OperatorEvent): Promise<void>;
  /** The users with the operator flag, by email. */
  listOperators(): Promise<ConsoleUser[]>;
  /** The audit trail of the role, newest first. */
  operatorEvents(limit: number): Promise<OperatorEvent[]>;

  /** Sessions are keyed by a hash of their id, so a store dump holds no usable cookie. */
  putSession(idHash: string, record: SessionRecord, ttlMs: number): Promise<void>;
  getSession(idHash: string): Promise<SessionRecord | undefined>;
  deleteSession(idHash: string): Promise<void>;

  /** Invite codes are handled as hashes. */
  addInvite(codeHash: string): Promise<void>;
  hasInvite(codeHash: string): Promise<boolean>;
  /** Marks an invite used; true only for the first caller. Atomic. */
  consumeInvite(codeHash: string): Promise<boolean>;

  /** Appends an attempt at `now` to `bucket` and forgets those older than `windowMs`. */
  recordAttempt(bucket: string, now: number, windowMs: number): Promise<void>;
  /** Attempts in `bucket` within (now − windowMs, now], oldest first. */
  recentAttempts(bucket: string, now: number, windowMs: number): Promise<number[]>;
  clearAttempts(bucket: string): Promise<void>;

  /** Resolves when the store answers (readiness). */
  ping(): Promise<void>;
  close(): Promise<void>;
}
