import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { serveFixedFiles } from './fixed-files.js';

describe('serveFixedFiles', () => {
  it('refuses to start when a declared file is missing, naming it', () => {
    expect(() => serveFixedFiles({ 'app.js': '/nonexistent/app.js' })).toThrow('browser file app.js is missing: /nonexistent/app.js');
  });

  it('passes an undeclared name on, even one that names a real file beside a declared one', () => {
    const handler = serveFixedFiles({ 'this.ts': fileURLToPath(import.meta.url) });
    let passed = 0;
    for (const name of ['index.ts', '../index.ts', 'constructor', '__proto__']) {
      handler({ params: { name } } as never, {} as never, () => void passed++);
    }
    expect(passed).toBe(4);
  });
});
