#!/usr/bin/env node
// `retail`, the command-line client (cli/src/main.ts). In the repository it runs the TypeScript
// source through tsx with the workspace packages' `source` condition, as every npm script here does
// (a condition cannot be added to a running process, hence the child process); an installed package
// has no src/ and runs its compiled dist/ in this process.
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const source = fileURLToPath(new URL('../src/main.ts', import.meta.url));

if (existsSync(source)) {
  const child = spawn(process.execPath, ['--conditions=source', '--import', import.meta.resolve('tsx'), source, ...process.argv.slice(2)], { stdio: 'inherit' });
  // Ctrl-C reaches the child from the terminal itself; a SIGTERM sent to this process is passed on.
  const ignore = () => {};
  const forward = () => child.kill('SIGTERM');
  process.on('SIGINT', ignore);
  process.on('SIGTERM', forward);
  child.on('exit', (code, signal) => {
    process.off('SIGINT', ignore);
    process.off('SIGTERM', forward);
    if (signal) process.kill(process.pid, signal);
    else process.exit(code ?? 1);
  });
} else {
  await import('../dist/main.js');
}
