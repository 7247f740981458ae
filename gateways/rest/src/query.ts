/**
 * Reads the query string ourselves instead of using express's parser: names stay literal
 * (`a[b]` is an unknown parameter, not an object) and a repeated name stays visible as an array,
 * so both answer 400 instead of being merged silently.
 */
export function readQuery(originalUrl: string): Record<string, string | string[]> {
  const at = originalUrl.indexOf('?');
  const out: Record<string, string | string[]> = Object.create(null) as Record<string, string | string[]>;
  if (at < 0) return out;
  for (const [name, value] of new URLSearchParams(originalUrl.slice(at + 1))) {
    const previous = out[name];
    if (previous === undefined) out[name] = value;
    else out[name] = Array.isArray(previous) ? [...previous, value] : [previous, value];
  }
  return out;
}
