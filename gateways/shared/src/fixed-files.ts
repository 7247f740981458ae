/**
 * Browser files a gateway serves from installed npm packages (and its own src/public), each under a
 * fixed URL name: nothing else is served, so no path from a request ever reaches the file system,
 * and a package's version is the one in package-lock.json (nothing copied into the repository).
 */
import { existsSync } from 'node:fs';
import type { RequestHandler } from 'express';

/** URL name → absolute file path. */
export type FixedFiles = Readonly<Record<string, string>>;

/**
 * A handler for a route with a `:name` parameter. Throws at start when a file is missing (a broken
 * install or image), rather than answering 404 in a browser later. Unknown names pass to `next`.
 */
export function serveFixedFiles(files: FixedFiles, headers: Readonly<Record<string, string>> = {}): RequestHandler {
  for (const [name, file] of Object.entries(files)) {
    if (!existsSync(file)) throw new Error(`browser file ${name} is missing: ${file}`);
  }
  return (req, res, next) => {
    const name = req.params.name;
    const file = typeof name === 'string' && Object.hasOwn(files, name) ? files[name] : undefined;
    if (!file) return next();
    // Versioned by the lockfile, not the URL: revalidate rather than cache blindly.
    res.set(headers).sendFile(file, { maxAge: 0 });
  };
}
