/**
 * Console sessions: an opaque random id in a cookie, signed with HMAC-SHA256 under the session
 * secret (a forged or altered cookie is refused before any store lookup), and a server-side record
 * holding the user and the CSRF synchronizer token. The store sees only a hash of the id.
 *
 * A visitor first gets an anonymous session (CSRF token only), so sign-up and sign-in are CSRF
 * protected too; signing in replaces it with a new id (no session fixation). Anonymous sessions are
 * stateless (expiry inside the signed id, token derived by HMAC): a flood of visitors writes nothing
 * to the ledger Redis, which runs without eviction.
 *
 * Own code rather than express-session / iron-session / csrf-csrf, on purpose (docs/console.md,
 * "Own session and CSRF code"): express-session stores every session, anonymous ones included, under
 * its raw id; cookie-only sessions cannot be ended server-side at sign-out.
 */
import { createHash, createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import type { Request, Response } from 'express';
import type { SessionRecord, UserStore } from './store.js';

export const SESSION_COOKIE = 'console_session';
export const CSRF_HEADER = 'x-csrf-token';

export interface SessionSettings {
  readonly secret: string;
  readonly secureCookies: boolean;
  /** Lifetime of a signed-in session. */
  readonly ttlMs: number;
  /** Lifetime of an anonymous (pre-sign-in) session. */
  readonly anonymousTtlMs: number;
}

export interface ActiveSession {
  readonly idHash: string;
  readonly record: SessionRecord;
  /** False for an anonymous session, which has no store record. */
  readonly stored: boolean;
}

const ANONYMOUS = 'anon-';

export interface SessionManager {
  /** The request's valid, unexpired session, or undefined. */
  read(req: Request): Promise<ActiveSession | undefined>;
  /** Starts a new session (replacing `previous` if given) and sets its cookie. */
  start(req: Request, res: Response, userId: string | undefined, previous?: ActiveSession): Promise<ActiveSession>;
  end(req: Request, res: Response, session: ActiveSession | undefined): Promise<void>;
  /** Timing-safe check of the request's CSRF header against the session's token. */
  csrfMatches(req: Request, session: ActiveSession): boolean;
}

const hashId = (id: string) => createHash('sha256').update(id).digest('base64url');

function safeEqual(a: string, b: string): boolean {
  const left = Buffer.from(a);
  const right = Buffer.from(b);
  return left.length === right.length && timingSafeEqual(left, right);
}

function readCookie(req: Request, name: string): string | undefined {
  const header = req.headers.cookie;
  if (!header) return undefined;
  for (const part of header.split(';')) {
    const eq = part.indexOf('=');
    if (eq > 0 && part.slice(0, eq).trim() === name) return part.slice(eq + 1).trim();
  }
  return undefined;
}

export function createSessionManager(store: UserStore, settings: SessionSettings, clock: () => number): SessionManager {
  const sign = (id: string) => createHmac('sha256', settings.secret).update(id).digest('base64url');

  /** `id.signature`, or undefined when the signature does not match. */
  const unsign = (value: string): string | undefined => {
    const dot = value.lastIndexOf('.');
    if (dot <= 0) return undefined;
    const id = value.slice(0, dot);
    return safeEqual(value.slice(dot + 1), sign(id)) ? id : undefined;
  };

  /** An anonymous session from its (already verified) id, or undefined once expired. */
  const anonymous = (id: string): ActiveSession | undefined => {
    const expiresAt = Number(id.slice(ANONYMOUS.length, id.indexOf('-', ANONYMOUS.length)));
    if (!Number.isFinite(expiresAt) || expiresAt <= clock()) return undefined;
    const csrfToken = createHmac('sha256', settings.secret).update(`csrf:${id}`).digest('base64url');
    return { idHash: hashId(id), record: { csrfToken, createdAt: expiresAt - settings.anonymousTtlMs, expiresAt }, stored: false };
  };

  const cookieAttributes = (req: Request, res: Response, maxAgeSeconds: number): string => {
    // Scoped to the console's own JSON API (`<mount>/api`): the page's static files and every other
    // path on the host (the data API included) never receive it.
    const path = `${(res.locals.consoleBase as string | undefined) ?? ''}/api`;
    const secure = settings.secureCookies || req.secure;
    return [`Path=${path}`, `Max-Age=${maxAgeSeconds}`, 'HttpOnly', 'SameSite=Strict', ...(secure ? ['Secure'] : [])].join('; ');
  };

  return {
    async read(req) {
      const raw = readCookie(req, SESSION_COOKIE);
      const id = raw ? unsign(raw) : undefined;
      if (!id) return undefined;
      if (id.startsWith(ANONYMOUS)) return anonymous(id);
      const idHash = hashId(id);
      const record = await store.getSession(idHash);
      if (!record) return undefined;
      if (record.expiresAt <= clock()) {
        await store.deleteSession(idHash);
        return undefined;
      }
      return { idHash, record, stored: true };
    },

    async start(req, res, userId, previous) {
      if (previous?.stored) await store.deleteSession(previous.idHash);
      const ttlMs = userId ? settings.ttlMs : settings.anonymousTtlMs;
      const now = clock();
      const random = randomBytes(32).toString('base64url');
      let session: ActiveSession;
      let id: string;
      if (userId) {
        id = random;
        const record: SessionRecord = { userId, csrfToken: randomBytes(32).toString('base64url'), createdAt: now, expiresAt: now + ttlMs };
        session = { idHash: hashId(id), record, stored: true };
        await store.putSession(session.idHash, record, ttlMs);
      } else {
        id = `${ANONYMOUS}${now + ttlMs}-${random}`;
        session = anonymous(id)!;
      }
      res.append('Set-Cookie', `${SESSION_COOKIE}=${id}.${sign(id)}; ${cookieAttributes(req, res, Math.floor(ttlMs / 1000))}`);
      return session;
    },

    async end(req, res, session) {
      if (session?.stored) await store.deleteSession(session.idHash);
      res.append('Set-Cookie', `${SESSION_COOKIE}=; ${cookieAttributes(req, res, 0)}`);
    },

    csrfMatches(req, session) {
      const header = req.headers[CSRF_HEADER];
      return typeof header === 'string' && header !== '' && safeEqual(header, session.record.csrfToken);
    },
  };
}
