/**
 * The ledger's Lua scripts. Every script gets KEYS[1] = the account hash (`<prefix>{<accountId>}:acct`,
 * which routes it to the account's Cluster slot) and ARGV[1] = the account's key base
 * (`<prefix>{<accountId>}:`); the other keys it touches share the `{accountId}` hash tag, so they
 * live in the same slot. Times are epoch milliseconds of the caller's (injectable) clock.
 *
 * Layout under the base: acct (HASH balance plan disabled createdAt), holds (HASH holdId → units
 * while held, then "=<units charged>": the settle's answer, kept in the hold's own field so a repeated
 * settle or admit gets it again), holdexp (ZSET holdId by expiry of the hold, then by when its answer
 * may be forgotten: one sweep for both), rate (HASH tokens ts), keyhash (HASH sha256 → keyId),
 * key:<keyId> (HASH), usage (STREAM), day:<YYYY-MM-DD> (HASH operation@interface → calls, store.ts
 * dayField), days (SET), audit (LIST). settled / settledexp (HASH, ZSET holdId → answer) held the answers until 0.2: still read
 * for a hold the new layout does not know, so a settle sent again across the upgrade stays exactly once.
 *
 * The settle's answer lives in the hold's field (issue 17): a separate hash and its expiry set cost
 * about five Redis commands per call (HGET, HDEL, ZREM, HSET and a second sweep), a quarter of the
 * settle script's work.
 */

/** Shared helpers, prepended to every script. */
const PRELUDE = `
local base = ARGV[1]
local acct = KEYS[1]
-- Expired holds (a gateway that died between admit and settle) go back to the balance; settle
-- answers ("=<charged>") are forgotten once a repeat of that settle can no longer arrive.
local function release_expired(now)
  local expired = redis.call('ZRANGEBYSCORE', base .. 'holdexp', '-inf', now, 'LIMIT', 0, 1000)
  if #expired == 0 then return end
  local total = 0
  for _, held in ipairs(redis.call('HMGET', base .. 'holds', unpack(expired))) do
    total = total + (tonumber(held or '') or 0)
  end
  redis.call('HDEL', base .. 'holds', unpack(expired))
  redis.call('ZREM', base .. 'holdexp', unpack(expired))
  if total > 0 and redis.call('EXISTS', acct) == 1 then redis.call('HINCRBY', acct, 'balance', total) end
end
-- Answers in the layout before 0.3 (settled / settledexp), read and swept only for holds the
-- current layout does not know.
local function forget_legacy_settled(now)
  local old = redis.call('ZRANGEBYSCORE', base .. 'settledexp', '-inf', now, 'LIMIT', 0, 1000)
  if #old == 0 then return end
  redis.call('HDEL', base .. 'settled', unpack(old))
  redis.call('ZREM', base .. 'settledexp', unpack(old))
end
local function audit(entry, keep)
  redis.call('LPUSH', base .. 'audit', entry)
  redis.call('LTRIM', base .. 'audit', 0, keep - 1)
end
-- Exact text of a double (tostring keeps only 14 digits), so Redis and the memory store agree bit for bit.
local function num(x)
  return string.format('%.17g', x)
end
local function in_list(list, item)
  return string.find(',' .. list .. ',', ',' .. item .. ',', 1, true) ~= nil
end
`;

/**
 * ARGV: base, keyHash, iface ('' = any), operations (comma list), shapeValid (1/0), now, holdId, holdExpiresAt,
 * units, plans (JSON {name: {r, b}}, r = -1 unlimited), defaultPlan, mode (admit|peek|token|account), rateCost
 * (tokens an admit or a token takes: it needs min(rateCost, burst) and may leave the bucket in debt).
 * Returns {code, keyId, plan, tokens, balance}. Check order: key → disabled → scope → rate → shape → units.
 * 'token' (a free read such as the usage history): key → disabled → scope → rate as an admit, the
 * token taken, then nothing held and no shape or balance check.
 */
const ADMIT = `
local now = tonumber(ARGV[6])
local mode = ARGV[12]
-- 'account': work the service does for an account (a watch's refresh, a job's items): no key, no
-- scope, no rate limit; the account, its state and its balance decide.
local keyId = ''
local k = {}
if mode ~= 'account' then
  keyId = redis.call('HGET', base .. 'keyhash', ARGV[2])
  if not keyId then return {'unknown'} end
  k = redis.call('HMGET', base .. 'key:' .. keyId, 'ops', 'ifaces', 'expiresAt', 'revokedAt')
  if k[4] or (k[3] and tonumber(k[3]) <= now) then return {'unknown'} end
end
local a = redis.call('HMGET', acct, 'plan', 'disabled')
if not a[1] then return {'unknown'} end
release_expired(now)
if a[2] == '1' then return {'disabled', keyId} end
if ARGV[3] ~= '' and k[2] and k[2] ~= '' and not in_list(k[2], ARGV[3]) then return {'scope', keyId} end
if k[1] and k[1] ~= '' then
  for op in string.gmatch(ARGV[4], '[^,]+') do
    if not in_list(k[1], op) then return {'scope', keyId} end
  end
end
local plans = cjson.decode(ARGV[10])
local planName = a[1]
local plan = plans[planName]
if not plan then planName = ARGV[11]; plan = plans[planName] end
-- The same admit sent again (a client library resending after a reconnect) answers as the first did
-- and neither takes a second token nor holds twice. Only modes that hold have a hold id to repeat.
local repeated = (mode == 'admit' or mode == 'account') and redis.call('HEXISTS', base .. 'holds', ARGV[7]) == 1
local tokens = -1
if plan.r >= 0 and mode ~= 'account' then
  local b = redis.call('HMGET', base .. 'rate', 'tokens', 'ts')
  tokens = plan.b
  if b[1] then tokens = math.min(plan.b, tonumber(b[1]) + math.max(0, now - tonumber(b[2])) * plan.r / 1000) end
  if (mode == 'admit' or mode == 'token') and not repeated then
    local cost = tonumber(ARGV[13])
    if tokens < math.min(cost, plan.b) then return {'rate', keyId, planName, num(tokens)} end
    tokens = tokens - cost
    redis.call('HSET', base .. 'rate', 'tokens', num(tokens), 'ts', ARGV[6])
    -- An idle bucket is full again after (burst - tokens)/rate seconds (a debt included); let Redis
    -- drop it some time after that, never before, or a debt would be forgiven.
    redis.call('PEXPIRE', base .. 'rate', math.ceil((plan.b - tokens) / plan.r * 1000) + 60000)
  end
end
local balance = tonumber(redis.call('HGET', acct, 'balance'))
if mode == 'peek' or mode == 'token' or repeated then return {'ok', keyId, planName, num(tokens), tostring(balance)} end
if ARGV[5] ~= '1' then return {'shape', keyId, planName, num(tokens)} end
local units = tonumber(ARGV[9])
-- A free call (0 units) is admitted below zero too (a late debit's debt): it overdraws nothing.
if units > 0 and balance < units then return {'units', keyId, planName, num(tokens), tostring(balance)} end
-- 0 - units, not -units: a free call holds 0 units, and Lua's -0 reaches Redis as "-0", which
-- HINCRBY refuses as not an integer (the whole admit then failed as "ledger unavailable").
redis.call('HINCRBY', acct, 'balance', 0 - units)
redis.call('HSET', base .. 'holds', ARGV[7], units)
redis.call('ZADD', base .. 'holdexp', ARGV[8], ARGV[7])
return {'ok', keyId, planName, num(tokens), tostring(balance - units)}
`;

/**
 * KEYS[2]: the record's hand-off stream (single node; KEYS[1] again when there is none). ARGV: base,
 * holdId, keyId, iface, charged operations (comma list), now, day, lastUsedIntervalMs, usageRetention,
 * dayTtlMs, notAfter (wall-clock ms; 0 = none), answerTtlMs, accountId for the hand-off ('' = none).
 * Returns {charged, balance, the account's restore epoch}.
 *
 * Exactly once per hold id: the answer is kept (in the hold's field, see the layout) and a repeated settle returns it.
 * A hold that expired and was released before its settle arrived is charged from the balance, as far
 * as the balance covers it (the call was served; it is never overdrawn). A settle executed after
 * `notAfter` by the server's own clock charges nothing and releases the hold: its gateway has stopped
 * waiting and answered "0 units charged", and the ledger must agree with that header.
 */
const SETTLE = `
local now = tonumber(ARGV[6])
local holds = base .. 'holds'
local entry = redis.call('HGET', holds, ARGV[2])
-- Settled already: the kept answer ("=" then the units charged).
if entry and string.byte(entry, 1) == 61 then return {string.sub(entry, 2), redis.call('HGET', acct, 'balance') or '0'} end
local held = entry ~= false
local units = 0
if held then
  units = tonumber(entry)
else
  local known = redis.call('HGET', base .. 'settled', ARGV[2])
  forget_legacy_settled(now)
  if known then return {known, redis.call('HGET', acct, 'balance') or '0'} end
end
local exists = redis.call('EXISTS', acct) == 1
local wanted = 0
for _ in string.gmatch(ARGV[5], '[^,]+') do wanted = wanted + 1 end
local notAfter = tonumber(ARGV[11])
local late = false
if notAfter > 0 then
  local t = redis.call('TIME')
  late = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000) > notAfter
end
local charged = 0
if exists and not late then
  if held then
    charged = math.min(wanted, units)
  else
    charged = math.max(0, math.min(wanted, tonumber(redis.call('HGET', acct, 'balance'))))
  end
end
if exists then redis.call('HINCRBY', acct, 'balance', units - charged) end
if charged > 0 then
  local dayKey = base .. 'day:' .. ARGV[7]
  local n = 0
  local ops = {}
  for op in string.gmatch(ARGV[5], '[^,]+') do
    if n >= charged then break end
    n = n + 1
    ops[n] = op
    redis.call('XADD', base .. 'usage', 'MAXLEN', '~', ARGV[9], '*', 'op', op, 'iface', ARGV[4], 'at', ARGV[6], 'key', ARGV[3])
    redis.call('HINCRBY', dayKey, op .. '@' .. ARGV[4], 1)
  end
  redis.call('PEXPIRE', dayKey, ARGV[10])
  redis.call('SADD', base .. 'days', ARGV[7])
  -- The record's hand-off (KEYS[2]): written with the charge, in the same step, so a charged call
  -- is in the stream exactly once (a repeated settle returned above).
  if ARGV[13] ~= '' then
    -- One field (account, key, interface, operations, units, time, then the hold id, which may hold
    -- anything): a seventh of the parsing of seven fields for the consumer.
    -- 'e': the restore epoch the account was charged in (usage-writes.ts: a late debit after a restore).
    redis.call('XADD', KEYS[2], '*', 'r', ARGV[13] .. '\t' .. ARGV[3] .. '\t' .. ARGV[4] .. '\t' .. table.concat(ops, ',') .. '\t' .. charged .. '\t' .. ARGV[6] .. '\t' .. ARGV[2], 'e', redis.call('HGET', acct, 'epoch') or '0')
  end
end
if exists and (held or charged > 0) then
  -- keyId is set on every key: its absence means the key is gone.
  local key = redis.call('HMGET', base .. 'key:' .. ARGV[3], 'keyId', 'lastUsedAt')
  if key[1] and (not key[2] or now - tonumber(key[2]) >= tonumber(ARGV[8])) then
    redis.call('HSET', base .. 'key:' .. ARGV[3], 'lastUsedAt', ARGV[6])
  end
end
if exists then
  redis.call('HSET', holds, ARGV[2], '=' .. charged)
  redis.call('ZADD', base .. 'holdexp', now + tonumber(ARGV[12]), ARGV[2])
elseif held then
  redis.call('HDEL', holds, ARGV[2])
  redis.call('ZREM', base .. 'holdexp', ARGV[2])
end
release_expired(now)
local after = redis.call('HMGET', acct, 'balance', 'epoch')
return {tostring(charged), after[1] or '0', after[2] or '0'}
`;

/** ARGV: base, units, plan, createdAt, auditEntry, auditKeep. Returns 1, or 0 when it exists. */
const CREATE_ACCOUNT = `
if redis.call('EXISTS', acct) == 1 then return 0 end
redis.call('HSET', acct, 'balance', ARGV[2], 'plan', ARGV[3], 'disabled', '0', 'createdAt', ARGV[4])
audit(ARGV[5], tonumber(ARGV[6]))
return 1
`;

/**
 * ARGV: base, balance, plan, disabled (1/0), createdAt, keys (JSON [{keyId, hash, prefix, label, ops,
 * ifaces, createdAt, expiresAt, revokedAt}], strings, '' for none), auditEntry, auditKeep, epoch (the
 * record's restore epoch: the account's `epoch` field, absent = 0). Returns 1, or 0 when the account exists (nothing changes): one step, so no call sees half an account.
 */
const RESTORE_ACCOUNT = `
if redis.call('EXISTS', acct) == 1 then return 0 end
redis.call('HSET', acct, 'balance', ARGV[2], 'plan', ARGV[3], 'disabled', ARGV[4], 'createdAt', ARGV[5], 'epoch', ARGV[9])
for _, k in ipairs(cjson.decode(ARGV[6])) do
  local keyKey = base .. 'key:' .. k.keyId
  redis.call('HSET', keyKey, 'keyId', k.keyId, 'hash', k.hash, 'prefix', k.prefix, 'label', k.label, 'ops', k.ops, 'ifaces', k.ifaces, 'createdAt', k.createdAt)
  if k.expiresAt ~= '' then redis.call('HSET', keyKey, 'expiresAt', k.expiresAt) end
  if k.revokedAt ~= '' then redis.call('HSET', keyKey, 'revokedAt', k.revokedAt) end
  redis.call('HSET', base .. 'keyhash', k.hash, k.keyId)
end
audit(ARGV[7], tonumber(ARGV[8]))
return 1
`;

/**
 * ARGV: base, now, keepMs, then per debit: holdId, units, chargedEpoch, recordedEpoch. Takes the units of
 * calls charged in a ledger that was lost and recorded after the restore that made this one (its epoch
 * R in (chargedEpoch, recordedEpoch]: usage-writes.ts), once per hold id: the hold's field keeps
 * "=<units>" for keepMs, as a settle's answer (so a repeat of that settle is not charged again either).
 * The balance may go below zero: those units were spent. Returns the units taken.
 */
const LATE_DEBIT = `
if redis.call('EXISTS', acct) == 0 then return 0 end
local epoch = tonumber(redis.call('HGET', acct, 'epoch') or '0')
local now = tonumber(ARGV[2])
local taken = 0
for i = 4, #ARGV, 4 do
  local hold = ARGV[i]
  if tonumber(ARGV[i + 2]) < epoch and epoch <= tonumber(ARGV[i + 3]) and redis.call('HEXISTS', base .. 'holds', hold) == 0 then
    local units = tonumber(ARGV[i + 1])
    redis.call('HINCRBY', acct, 'balance', 0 - units)
    redis.call('HSET', base .. 'holds', hold, '=' .. units)
    redis.call('ZADD', base .. 'holdexp', now + tonumber(ARGV[3]), hold)
    taken = taken + units
  end
end
return taken
`;

/** ARGV: base, units, now, auditEntry, auditKeep. Returns the new balance, or false when missing. */
const GRANT = `
if redis.call('EXISTS', acct) == 0 then return false end
release_expired(tonumber(ARGV[3]))
local balance = redis.call('HINCRBY', acct, 'balance', ARGV[2])
audit(ARGV[4], tonumber(ARGV[5]))
return balance
`;

/** ARGV: base, field, value, auditEntry, auditKeep. Returns 1, or 0 when missing. */
const SET_FIELD = `
if redis.call('EXISTS', acct) == 0 then return 0 end
redis.call('HSET', acct, ARGV[2], ARGV[3])
audit(ARGV[4], tonumber(ARGV[5]))
return 1
`;

/** ARGV: base. Deletes the account with its keys, holds, usage and audit. Returns 1 or 0. */
const DELETE_ACCOUNT = `
local existed = redis.call('EXISTS', acct)
local doomed = {acct, base .. 'holds', base .. 'holdexp', base .. 'settled', base .. 'settledexp', base .. 'rate', base .. 'keyhash', base .. 'usage', base .. 'days', base .. 'audit'}
for _, id in ipairs(redis.call('HVALS', base .. 'keyhash')) do table.insert(doomed, base .. 'key:' .. id) end
for _, day in ipairs(redis.call('SMEMBERS', base .. 'days')) do table.insert(doomed, base .. 'day:' .. day) end
for _, name in ipairs(doomed) do redis.call('DEL', name) end
return existed
`;

/**
 * ARGV: base, keyId, hash, prefix, label, ops, ifaces, createdAt, expiresAt ('' none), maxActive, now,
 * auditEntry, auditKeep. Returns 'ok', 'missing' or 'limit'.
 */
const CREATE_KEY = `
if redis.call('EXISTS', acct) == 0 then return 'missing' end
local now = tonumber(ARGV[11])
local active = 0
for _, id in ipairs(redis.call('HVALS', base .. 'keyhash')) do
  local k = redis.call('HMGET', base .. 'key:' .. id, 'expiresAt', 'revokedAt')
  if not k[2] and (not k[1] or tonumber(k[1]) > now) then active = active + 1 end
end
if active >= tonumber(ARGV[10]) then return 'limit' end
local keyKey = base .. 'key:' .. ARGV[2]
redis.call('HSET', keyKey, 'keyId', ARGV[2], 'hash', ARGV[3], 'prefix', ARGV[4], 'label', ARGV[5], 'ops', ARGV[6], 'ifaces', ARGV[7], 'createdAt', ARGV[8])
if ARGV[9] ~= '' then redis.call('HSET', keyKey, 'expiresAt', ARGV[9]) end
redis.call('HSET', base .. 'keyhash', ARGV[3], ARGV[2])
audit(ARGV[12], tonumber(ARGV[13]))
return 'ok'
`;

/** ARGV: base. Returns false when the account is missing, else a list of flat HGETALL replies. */
const LIST_KEYS = `
if redis.call('EXISTS', acct) == 0 then return false end
local out = {}
for _, id in ipairs(redis.call('HVALS', base .. 'keyhash')) do
  table.insert(out, redis.call('HGETALL', base .. 'key:' .. id))
end
return out
`;

/** ARGV: base, keyId, now, auditEntry, auditKeep. Returns 1 when the key is (now or already) revoked. */
const REVOKE_KEY = `
local keyKey = base .. 'key:' .. ARGV[2]
if redis.call('EXISTS', keyKey) == 0 then return 0 end
if redis.call('HEXISTS', keyKey, 'revokedAt') == 0 then
  redis.call('HSET', keyKey, 'revokedAt', ARGV[3])
  audit(ARGV[4], tonumber(ARGV[5]))
end
return 1
`;

/** ARGV: base, now, day1, day2, ... Returns false, or {balance, plan, day1, {op, calls, ...}, ...}. */
const SUMMARY = `
if redis.call('EXISTS', acct) == 0 then return false end
release_expired(tonumber(ARGV[2]))
local a = redis.call('HMGET', acct, 'balance', 'plan')
local out = {a[1], a[2]}
for i = 3, #ARGV do
  table.insert(out, ARGV[i])
  table.insert(out, redis.call('HGETALL', base .. 'day:' .. ARGV[i]))
end
return out
`;

export const LEDGER_SCRIPTS = {
  ledgerAdmit: ADMIT,
  ledgerSettle: SETTLE,
  ledgerCreateAccount: CREATE_ACCOUNT,
  ledgerRestoreAccount: RESTORE_ACCOUNT,
  ledgerLateDebit: LATE_DEBIT,
  ledgerGrant: GRANT,
  ledgerSetField: SET_FIELD,
  ledgerDeleteAccount: DELETE_ACCOUNT,
  ledgerCreateKey: CREATE_KEY,
  ledgerListKeys: LIST_KEYS,
  ledgerRevokeKey: REVOKE_KEY,
  ledgerSummary: SUMMARY,
} as const;

export type LedgerScriptName = keyof typeof LEDGER_SCRIPTS;

/** Keys a script is given (KEYS): the account hash, and for the settle the hand-off stream too. */
export function scriptKeyCount(name: LedgerScriptName): number {
  return name === 'ledgerSettle' ? 2 : 1;
}

export function scriptSource(name: LedgerScriptName): string {
  return PRELUDE + LEDGER_SCRIPTS[name];
}
