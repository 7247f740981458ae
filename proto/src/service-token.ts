/**
 * The service token between the internal services (docs/architecture.md): every caller of the
 * core's and the watcher's gRPC servers presents it as `authorization: Bearer <token>`, but for
 * health, which Kubernetes probes and load balancers call without one. Both servers check it
 * here, in their own interceptors (the watcher may not import the core). Not exported from the
 * package index: clients need no server code. Metadata is typed by what is read (grpc-js's
 * `Metadata` fits), so the contract does not depend on grpc-js.
 */
import { createHash, timingSafeEqual } from 'node:crypto';

/** Method paths below this prefix (grpc.health.v1) need no token. */
export const TOKEN_EXEMPT_PREFIX = '/grpc.health.v1.Health/';

const digest = (value: string) => createHash('sha256').update(value, 'utf8').digest();

/** `authorization: Bearer <token>` compared in constant time (hashes make the lengths equal). */
export function createTokenCheck(token: string): (metadata: { get(key: string): readonly unknown[] }) => boolean {
  if (token.length === 0) throw new Error('the service token must not be empty');
  const expected = digest(token);
  return (metadata) => {
    const values = metadata.get('authorization');
    if (values.length !== 1 || typeof values[0] !== 'string') return false;
    const match = /^Bearer (\S+)$/i.exec(values[0].trim());
    return match !== null && timingSafeEqual(digest(match[1]!), expected);
  };
}
