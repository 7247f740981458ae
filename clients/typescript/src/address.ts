/**
 * Where a client connects: `host:port` (plaintext HTTP/2, as services inside the cluster call the
 * core and the watcher) or an `http://` / `https://` URL (TLS, e.g. through a mesh gateway). Any
 * other scheme, credentials or a path in the URL are refused before anything connects: an address
 * comes from configuration, and a typo must not become a request to somewhere else.
 */
export class AddressError extends Error {
  override readonly name = 'AddressError';
}

const HOST_PORT = /^(\[[0-9a-fA-F:.]+\]|[A-Za-z0-9.-]+):(\d{1,5})$/;

/** The base URL of Connect's gRPC transport for an address; throws AddressError when it is not one. */
export function baseUrlOf(address: string): string {
  const trimmed = address.trim();
  if (HOST_PORT.test(trimmed)) {
    checkPort(Number(HOST_PORT.exec(trimmed)![2]), address);
    return `http://${trimmed}`;
  }
  let url: URL;
  try {
    url = new URL(trimmed);
  } catch {
    throw new AddressError(`address ${JSON.stringify(address)} is neither host:port nor an http(s) URL`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new AddressError(`address scheme ${url.protocol} is not http: or https:`);
  if (url.username || url.password) throw new AddressError('address must not carry credentials: give the service token as serviceToken');
  if (url.pathname !== '/' || url.search || url.hash) throw new AddressError('address must be an origin (scheme, host and port), without a path or query');
  if (url.port) checkPort(Number(url.port), address);
  return url.origin;
}

function checkPort(port: number, address: string): void {
  if (port < 1 || port > 65535) throw new AddressError(`address ${JSON.stringify(address)} has a port outside 1-65535`);
}
