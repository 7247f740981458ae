import type { Redis } from 'ioredis';
import { DEFAULT_WINDOW, type FieldWindowStore, type WindowCounts, type WindowKey, type WindowSettings } from './field-window.js';

/*
 * The field window every core replica shares, on the cache Redis. One script per batch of parses
 * keeps the list of the last `size` presence strings, the per-field counts over it (a hash, kept in
 * step as parses enter and leave) and the learned baseline (a hash of exponentially weighted means),
 * and answers all three: one round trip, atomic across replicas. The keys of one (marketplace, kind)
 * share a hash tag, so the script also runs on a Redis Cluster. They expire after `ttlSeconds`
 * without a parse, so a marketplace nobody reads anymore leaves nothing behind.
 *
 * This is our own small script rather than a library: a count-based window with running counts is
 * three Redis commands per parse, and no kept library offers it (rate limiters count time windows).
 */

const PUSH = `
local size, rate, learn, fields, ttl = tonumber(ARGV[1]), tonumber(ARGV[2]), ARGV[3] == '1', tonumber(ARGV[4]), tonumber(ARGV[5])
local counts, baseline = {}, {}
local raw = redis.call('HGETALL', KEYS[2])
for i = 1, #raw, 2 do counts[raw[i]] = tonumber(raw[i + 1]) end
raw = redis.call('HGETALL', KEYS[3])
for i = 1, #raw, 2 do baseline[raw[i]] = tonumber(raw[i + 1]) end
local function add(parse, delta)
  counts['n'] = (counts['n'] or 0) + delta
  for f = 1, fields do
    if string.sub(parse, f, f) == '1' then counts[tostring(f - 1)] = (counts[tostring(f - 1)] or 0) + delta end
  end
end
for a = 6, #ARGV do
  local parse = ARGV[a]
  redis.call('RPUSH', KEYS[1], parse)
  add(parse, 1)
  if redis.call('LLEN', KEYS[1]) > size then add(redis.call('LPOP', KEYS[1]), -1) end
  if learn then
    local k = (baseline['k'] or 0) + 1
    baseline['k'] = k
    local r = math.max(rate, 1 / k)
    for f = 1, fields do
      local was = baseline[tostring(f - 1)] or 0
      local now = string.sub(parse, f, f) == '1' and 1 or 0
      baseline[tostring(f - 1)] = was + r * (now - was)
    end
  end
end
local flat, out = {}, { tostring(counts['n'] or 0), tostring(baseline['k'] or 0) }
for name, value in pairs(counts) do table.insert(flat, name); table.insert(flat, tostring(value)) end
if #flat > 0 then redis.call('HSET', KEYS[2], unpack(flat)) end
flat = {}
for name, value in pairs(baseline) do table.insert(flat, name); table.insert(flat, string.format('%.17g', value)) end
if #flat > 0 then redis.call('HSET', KEYS[3], unpack(flat)) end
for f = 1, fields do
  table.insert(out, tostring(counts[tostring(f - 1)] or 0))
  table.insert(out, string.format('%.17g', baseline[tostring(f - 1)] or 0))
end
for k = 1, 3 do redis.call('EXPIRE', KEYS[k], ttl) end
return out
`;

export interface RedisFieldWindowOptions extends Partial<WindowSettings> {
  /** A client of the cache Redis (cache/redis-store.ts createCacheRedisClient). */
  readonly client: Redis;
  /** Keys of a (marketplace, kind) without a parse for this long are dropped (default 30 days). */
  readonly ttlSeconds?: number;
  /** Whether close() disconnects the client (default true: the window owns it). */
  readonly ownsClient?: boolean;
}

const SCRIPT = 'retailFieldWindowPush';

const keysOf = (key: WindowKey): [string, string, string] => {
  const tag = `retail:field-health:{${key.marketplace}:${key.kind}:${key.version}}`;
  return [`${tag}:window`, `${tag}:counts`, `${tag}:baseline`];
};

function decode(reply: readonly string[], fields: number): WindowCounts {
  const present: number[] = [];
  const baseline: number[] = [];
  for (let f = 0; f < fields; f++) {
    present.push(Number(reply[2 + 2 * f]));
    baseline.push(Number(reply[3 + 2 * f]));
  }
  return { parses: Number(reply[0]), learned: Number(reply[1]), present, baseline };
}

export function createRedisFieldWindow(options: RedisFieldWindowOptions): FieldWindowStore {
  const settings = { ...DEFAULT_WINDOW, ...options };
  const ttl = String(options.ttlSeconds ?? 30 * 24 * 3600);
  const client = options.client;
  // defineCommand sends the script once and then runs it by its SHA (EVALSHA, reloaded after a restart).
  if (!(SCRIPT in client)) client.defineCommand(SCRIPT, { numberOfKeys: 3, lua: PUSH });
  const script = (client as unknown as Record<typeof SCRIPT, (...args: string[]) => Promise<string[]>>)[SCRIPT];
  const run = async (key: WindowKey, presence: readonly string[], learn: boolean): Promise<WindowCounts> => {
    const args = [String(settings.size), String(settings.learnRate), learn ? '1' : '0', String(key.fields), ttl, ...presence];
    const reply = await script.call(client, ...keysOf(key), ...args);
    return decode(reply, key.fields);
  };
  return {
    push: run,
    // A push of no parses changes nothing and answers the counts: one script for both.
    read: (key) => run(key, [], false),
    async close() {
      if (options.ownsClient !== false) client.disconnect();
    },
  };
}
