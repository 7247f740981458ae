import type { Redis } from 'ioredis';
import { applied, type IncidentRecord, type IncidentStore, type IncidentTransition } from './incident-store.js';

/*
 * The incident state on the cache Redis, shared by every core replica. One script compares the
 * record's version and, when it still matches, stores the new record, numbers the transition and
 * appends it to the log: atomic, so one replica wins each change. Every key carries one hash tag
 * (one Cluster slot). The state is small and read by every replica every few seconds, so the cache's
 * LRU eviction does not reach it in practice; were it evicted, the (marketplace, kind) would read as
 * healthy and its next window would open the incident again (the watcher records it again:
 * docs/data-health.md).
 */

const TAG = '{retail:data-incidents}';
const KEYS = [`${TAG}:records`, `${TAG}:seq`, `${TAG}:log`] as const;

const TRANSITION = `
local stored = redis.call('HGET', KEYS[1], ARGV[1])
local version = 0
if stored then version = cjson.decode(stored).version end
if version ~= tonumber(ARGV[2]) then return -1 end
local seq = redis.call('INCR', KEYS[2])
redis.call('HSET', KEYS[1], ARGV[1], ARGV[3])
local transition = cjson.decode(ARGV[4])
transition.seq = seq
redis.call('RPUSH', KEYS[3], cjson.encode(transition))
redis.call('LTRIM', KEYS[3], -tonumber(ARGV[5]), -1)
return seq
`;

const SCRIPT = 'retailIncidentTransition';

export interface RedisIncidentStoreOptions {
  readonly client: Redis;
  /** Transitions kept in the log (default 1000). */
  readonly logLimit?: number;
  readonly ownsClient?: boolean;
}

export function createRedisIncidentStore(options: RedisIncidentStoreOptions): IncidentStore {
  const { client } = options;
  const logLimit = String(options.logLimit ?? 1000);
  if (!(SCRIPT in client)) client.defineCommand(SCRIPT, { numberOfKeys: 3, lua: TRANSITION });
  const script = (client as unknown as Record<typeof SCRIPT, (...args: string[]) => Promise<number>>)[SCRIPT];
  return {
    async all() {
      const stored = await client.hvals(KEYS[0]);
      return stored.map((json) => JSON.parse(json) as IncidentRecord);
    },
    async transition(current, next, at) {
      const { record, transition } = applied(current, next, at, 0);
      const id = `${current.marketplace}:${current.kind}`;
      const seq = await script.call(client, ...KEYS, id, String(current.version), JSON.stringify(record), JSON.stringify(transition), logLimit);
      return seq < 0 ? undefined : { ...transition, seq };
    },
    async transitionsAfter(after) {
      const log = await client.lrange(KEYS[2], 0, -1);
      // cjson writes an empty Lua table as {}: the fields of a closing come back as an object.
      return log
        .map((json) => JSON.parse(json) as IncidentTransition & { fields: unknown })
        .map((t) => ({ ...t, fields: Array.isArray(t.fields) ? (t.fields as string[]) : [] }))
        .filter((t) => t.seq > after);
    },
    async close() {
      if (options.ownsClient !== false) client.disconnect();
    },
  };
}
