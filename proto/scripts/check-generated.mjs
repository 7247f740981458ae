// Fails when src/gen differs from what `buf generate` makes of the current .proto files, so the
// committed generated code can never drift from the contract.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';

const root = new URL('..', import.meta.url).pathname;
const scratch = mkdtempSync(join(tmpdir(), 'retail-gen-'));
const template = readFileSync(join(root, 'buf.gen.yaml'), 'utf8').replace('out: src/gen', `out: ${scratch}`);
const templatePath = join(scratch, '.buf.gen.yaml');
writeFileSync(templatePath, template);
try {
  execFileSync('buf', ['generate', '--template', templatePath], { cwd: root, stdio: 'inherit' });
  const list = (dir) =>
    readdirSync(dir).flatMap((name) => {
      const p = join(dir, name);
      return statSync(p).isDirectory() ? list(p) : [p];
    });
  const fresh = list(scratch).filter((p) => p !== templatePath).map((p) => relative(scratch, p)).sort();
  const committed = list(join(root, 'src/gen')).map((p) => relative(join(root, 'src/gen'), p)).sort();
  const stale = [...new Set([...fresh, ...committed])].filter((f) => {
    try {
      return readFileSync(join(scratch, f), 'utf8') !== readFileSync(join(root, 'src/gen', f), 'utf8');
    } catch {
      return true;
    }
  });
  if (stale.length > 0) {
    console.error(`generated code is stale; run \`npm run generate\`: ${stale.join(', ')}`);
    process.exit(1);
  }
  console.log(`generated code is current (${fresh.length} files)`);
} finally {
  rmSync(scratch, { recursive: true, force: true });
}
