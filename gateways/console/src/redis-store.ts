/**
 * UserStore on the ledger Redis (ioredis), every key under `console:` so it never meets the
 * metering library's keys. Replicas of the console share users, sessions, invites and the sign-in
 * attempt logs through it. Session keys also carry a Redis TTL so abandoned sessions disappear.
 */
import { randomBytes } from 'node:crypto';
import { Redis } from 'ioredis';
import type { ConsoleUser, OperatorEvent, SessionRecord, UserStore } from './store.js';

const NS = 'console:';
const key = {
  user: (userId: string) => `${NS}user:${userId}`,
  email: (email: string) => `${NS}email:${email}`,
  session: (idHash: string) => `${NS}session:${idHash}`,
  invites: `${NS}invites`,
  usedInvites: `${NS}invites:used`,
  attempts: (bucket: string) => `${NS}attempts:${bucket}`,
  /** The operator role's holders (user ids) and its audit trail (a list, newest first). */
  operators: `${NS}operators`,
  operatorEvents: `${NS}operator-events`,
};

export interface RedisUserStoreOptions {
  readonly url?: string;
  /** An existing client; the store will not close it. */
  readonly client?: Redis;
  /** Told once per outage when the connection fails. */
  readonly onError?: (error: Error) => void;
}

export function createRedisUserStore(options: RedisUserStoreOptions): UserStore {
  const owned = !options.client;
  const redis =
    options.client ??
    new Redis(options.url ?? 'redis://127.0.0.1:6379', { lazyConnect: false, maxRetriesPerRequest: 2, enableOfflineQueue: true });

  // Connection errors surface on the commands that fail (→ 503); the event only needs a listener so
  // ioredis does not report them as unhandled. Reported once per outage, not per retry.
  let reported = false;
  redis.on('error', (error: Error) => {
    if (!reported) options.onError?.(error);
    reported = true;
  });
  redis.on('ready', () => (reported = false));

  const readJson = async <T>(redisKey: string): Promise<T | undefined> => {
    const raw = await redis.get(redisKey);
    return raw === null ? undefined : (JSON.parse(raw) as T);
  };

  const getUser = (userId: string) => readJson<ConsoleUser>(key.user(userId));

  return {
    async reserveEmail(email, userId) {
      return (await redis.set(key.email(email), userId, 'NX')) === 'OK';
    },
    async releaseEmail(email, userId) {
      // Compare-and-delete in one step, so a reservation that changed hands is left alone.
      await redis.eval(
        "if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end return 0",
        1,
        key.email(email),
        userId,
      );
    },
    async saveUser(user) {
      await redis.set(key.user(user.userId), JSON.stringify(user));
    },
    getUser,
    async findUserByEmail(email) {
      const userId = await redis.get(key.email(email));
      return userId === null ? undefined : getUser(userId);
    },
    async setOperator(event) {
      const user = await getUser(event.userId);
      if (!user) throw new Error(`no console user ${event.userId}`);
      const granted = event.action === 'grant';
      // One MULTI: the flag, the holders' set and the audit entry change together.
      const change = redis.multi().set(key.user(user.userId), JSON.stringify({ ...user, operator: granted }));
      if (granted) change.sadd(key.operators, user.userId);
      else change.srem(key.operators, user.userId);
      await change.lpush(key.operatorEvents, JSON.stringify(event)).exec();
    },
    async listOperators() {
      const ids = await redis.smembers(key.operators);
      const found = await Promise.all(ids.map(getUser));
      return found.filter((user): user is ConsoleUser => user?.operator === true).sort((a, b) => a.email.localeCompare(b.email));
    },
    async operatorEvents(limit) {
      const raw = await redis.lrange(key.operatorEvents, 0, limit - 1);
      return raw.map((entry) => JSON.parse(entry) as OperatorEvent);
    },
    async putSession(idHash, record, ttlMs) {
      await redis.set(key.session(idHash), JSON.stringify(record), 'PX', Math.max(1, Math.ceil(ttlMs)));
    },
    getSession: (idHash) => readJson<SessionRecord>(key.session(idHash)),
    async deleteSession(idHash) {
      await redis.del(key.session(idHash));
    },
    async addInvite(codeHash) {
      await redis.sadd(key.invites, codeHash);
    },
    async hasInvite(codeHash) {
      return (await redis.sismember(key.invites, codeHash)) === 1;
    },
    async consumeInvite(codeHash) {
      return (await redis.sadd(key.usedInvites, codeHash)) === 1;
    },
    async recordAttempt(bucket, now, windowMs) {
      const attemptsKey = key.attempts(bucket);
      await redis
        .multi()
        .zremrangebyscore(attemptsKey, '-inf', now - windowMs)
        .zadd(attemptsKey, now, `${now}:${randomBytes(6).toString('hex')}`)
        .pexpire(attemptsKey, windowMs)
        .exec();
    },
    async recentAttempts(bucket, now, windowMs) {
      const scores = await redis.zrangebyscore(key.attempts(bucket), `(${now - windowMs}`, now, 'WITHSCORES');
      return scores.filter((_, index) => index % 2 === 1).map(Number);
    },
    async clearAttempts(bucket) {
      await redis.del(key.attempts(bucket));
    },
    async ping() {
      await redis.ping();
    },
    async close() {
      if (owned) await redis.quit().catch(() => redis.disconnect());
    },
  };
}
