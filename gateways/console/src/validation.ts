/** Input rules for the console's JSON bodies; each problem names the field it is about. */
import { ValidationError, type FieldProblem } from './errors.js';

export const PASSWORD_MIN_LENGTH = 10;
/** scrypt cost is per byte of input only marginally, but nobody needs more. */
export const PASSWORD_MAX_LENGTH = 256;
export const LABEL_MAX_LENGTH = 64;
const EMAIL_MAX_LENGTH = 254;
// Deliberately simple: one @, no spaces, a dot in the domain. Delivery is the real test.
const EMAIL_PATTERN = /^[^\s@]+@[^\s@.]+(\.[^\s@.]+)+$/;
// Printable characters only: labels are shown in the page and in the admin CLI.
const LABEL_PATTERN = /^[^\p{Cc}\p{Cf}\p{Zl}\p{Zp}]*$/u;

export function normaliseEmail(raw: string): string {
  return raw.trim().toLowerCase();
}

function objectBody(body: unknown): Record<string, unknown> {
  if (body === null || typeof body !== 'object' || Array.isArray(body)) {
    throw new ValidationError([{ path: [], message: 'Expected a JSON object body (Content-Type: application/json)' }]);
  }
  return body as Record<string, unknown>;
}

function unknownFields(body: Record<string, unknown>, allowed: readonly string[]): FieldProblem[] {
  return Object.keys(body)
    .filter((name) => !allowed.includes(name))
    .map((name) => ({ path: [name], message: `Unknown field "${name}"` }));
}

function checkEmail(value: unknown, problems: FieldProblem[]): string {
  if (typeof value !== 'string' || value.trim() === '') {
    problems.push({ path: ['email'], message: 'Email is required' });
    return '';
  }
  const email = normaliseEmail(value);
  if (email.length > EMAIL_MAX_LENGTH || !EMAIL_PATTERN.test(email)) {
    problems.push({ path: ['email'], message: 'Email address is not valid' });
  }
  return email;
}

const localPart = (email: string): string => email.split('@')[0] ?? '';

export interface Credentials {
  readonly email: string;
  readonly password: string;
}

export interface SignUpInput extends Credentials {
  readonly inviteCode?: string;
}

/** Sign-up applies the password policy; sign-in only checks the shape (old passwords still work). */
export function parseSignUp(body: unknown): SignUpInput {
  const fields = objectBody(body);
  const problems = unknownFields(fields, ['email', 'password', 'inviteCode']);
  const email = checkEmail(fields.email, problems);
  const password = fields.password;
  if (typeof password !== 'string' || password === '') {
    problems.push({ path: ['password'], message: 'Password is required' });
  } else if ([...password].length < PASSWORD_MIN_LENGTH) {
    problems.push({ path: ['password'], message: `Password must be at least ${PASSWORD_MIN_LENGTH} characters` });
  } else if (password.length > PASSWORD_MAX_LENGTH) {
    problems.push({ path: ['password'], message: `Password must be at most ${PASSWORD_MAX_LENGTH} characters` });
  } else if (new Set(password).size < 4) {
    problems.push({ path: ['password'], message: 'Password is too simple: use more different characters' });
  } else if (localPart(email).length >= 4 && password.toLowerCase().includes(localPart(email))) {
    problems.push({ path: ['password'], message: 'Password must not contain your email address' });
  }
  const inviteCode = fields.inviteCode;
  if (inviteCode !== undefined && (typeof inviteCode !== 'string' || inviteCode.length > 128)) {
    problems.push({ path: ['inviteCode'], message: 'Invite code must be a string of at most 128 characters' });
  }
  if (problems.length > 0) throw new ValidationError(problems);
  const trimmedInvite = typeof inviteCode === 'string' && inviteCode.trim() !== '' ? inviteCode.trim() : undefined;
  return { email, password: password as string, ...(trimmedInvite ? { inviteCode: trimmedInvite } : {}) };
}

export function parseSignIn(body: unknown): Credentials {
  const fields = objectBody(body);
  const problems = unknownFields(fields, ['email', 'password']);
  const email = checkEmail(fields.email, problems);
  const password = fields.password;
  if (typeof password !== 'string' || password === '') problems.push({ path: ['password'], message: 'Password is required' });
  else if (password.length > PASSWORD_MAX_LENGTH) problems.push({ path: ['password'], message: 'Password is too long' });
  if (problems.length > 0) throw new ValidationError(problems);
  return { email, password: password as string };
}

/** `POST /keys`: an empty body or `{}` is fine; `{ label }` is optional. */
export function parseCreateKey(body: unknown): { label?: string } {
  const fields = body === undefined || body === null ? {} : objectBody(body);
  const problems = unknownFields(fields, ['label']);
  const label = fields.label;
  if (label !== undefined && label !== null) {
    if (typeof label !== 'string') problems.push({ path: ['label'], message: 'Label must be a string' });
    else if (label.trim().length > LABEL_MAX_LENGTH) problems.push({ path: ['label'], message: `Label must be at most ${LABEL_MAX_LENGTH} characters` });
    else if (!LABEL_PATTERN.test(label)) problems.push({ path: ['label'], message: 'Label must not contain control characters' });
  }
  if (problems.length > 0) throw new ValidationError(problems);
  const trimmed = typeof label === 'string' ? label.trim() : '';
  return trimmed === '' ? {} : { label: trimmed };
}
