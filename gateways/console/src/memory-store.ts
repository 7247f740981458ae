/** The embedded UserStore: plain maps in this process (development, `npm start`, tests). */
import type { ConsoleUser, OperatorEvent, SessionRecord, UserStore } from './store.js';

export function createMemoryUserStore(): UserStore {
  const users = new Map<string, ConsoleUser>();
  const emails = new Map<string, string>();
  // Each session with a real-time deadline so abandoned ones (never signed out) are swept.
  const sessions = new Map<string, { record: SessionRecord; deadline: number }>();
  let putsSinceSweep = 0;
  const invites = new Set<string>();
  const usedInvites = new Set<string>();
  const attempts = new Map<string, number[]>();
  const operatorEvents: OperatorEvent[] = [];

  const within = (bucket: string, now: number, windowMs: number): number[] =>
    (attempts.get(bucket) ?? []).filter((at) => at > now - windowMs && at <= now);

  return {
    async reserveEmail(email, userId) {
      if (emails.has(email)) return false;
      emails.set(email, userId);
      return true;
    },
    async releaseEmail(email, userId) {
      if (emails.get(email) === userId) emails.delete(email);
    },
    async saveUser(user) {
      users.set(user.userId, user);
    },
    async getUser(userId) {
      return users.get(userId);
    },
    async findUserByEmail(email) {
      const userId = emails.get(email);
      return userId === undefined ? undefined : users.get(userId);
    },
    async setOperator(event) {
      const user = users.get(event.userId);
      if (!user) throw new Error(`no console user ${event.userId}`);
      users.set(user.userId, { ...user, operator: event.action === 'grant' });
      operatorEvents.push(event);
    },
    async listOperators() {
      return [...users.values()].filter((user) => user.operator === true).sort((a, b) => a.email.localeCompare(b.email));
    },
    async operatorEvents(limit) {
      return operatorEvents.slice(-limit).reverse();
    },
    async putSession(idHash, record, ttlMs) {
      if (++putsSinceSweep >= 1000) {
        putsSinceSweep = 0;
        const now = Date.now();
        for (const [id, entry] of sessions) if (entry.deadline < now) sessions.delete(id);
      }
      sessions.set(idHash, { record, deadline: Date.now() + ttlMs });
    },
    async getSession(idHash) {
      return sessions.get(idHash)?.record;
    },
    async deleteSession(idHash) {
      sessions.delete(idHash);
    },
    async addInvite(codeHash) {
      invites.add(codeHash);
    },
    async hasInvite(codeHash) {
      return invites.has(codeHash);
    },
    async consumeInvite(codeHash) {
      if (usedInvites.has(codeHash)) return false;
      usedInvites.add(codeHash);
      return true;
    },
    async recordAttempt(bucket, now, windowMs) {
      attempts.set(bucket, [...within(bucket, now, windowMs), now]);
    },
    async recentAttempts(bucket, now, windowMs) {
      return within(bucket, now, windowMs);
    },
    async clearAttempts(bucket) {
      attempts.delete(bucket);
    },
    async ping() {},
    async close() {
      sessions.clear();
    },
  };
}
