import { describe, expect, it } from 'vitest';
import { REPARSE_USAGE, reparseDraftOf, runReparseCommand } from './reparse-command.js';

async function refused(argv: string[]) {
  const err: string[] = [];
  const code = await runReparseCommand(argv, {}, { out: () => undefined, err: (line) => err.push(line) });
  return { code, err: err.join('\n') };
}

describe('npm run admin -- reparse, its arguments', () => {
  it('takes the marketplace, kind and window, with --until and --force optional', () => {
    const draft = reparseDraftOf(['--domain', 'us', '--kind', 'product', '--since', '2026-11-28T10:00:00Z', '--until', '2026-11-28T12:00:00+01:00', '--force']);
    expect(draft).toMatchObject({ domain: 'US', kind: 'product', since: new Date('2026-11-28T10:00:00Z'), until: new Date('2026-11-28T11:00:00Z'), force: true, wait: true });
    expect(draft.id).toMatch(/^[0-9a-f-]{36}$/);
  });

  it.each([
    [['--domain', 'US', '--kind', 'product'], '--domain, --kind and --since are required'],
    [['--domain', 'US', '--kind', 'search', '--since', '2026-11-28T10:00:00Z'], '--kind must be one of product'],
    [['--domain', 'US', '--kind', 'product', '--since', 'yesterday'], '--since must be an RFC 3339 time'],
    [['--domain', 'US', '--kind', 'product', '--since', '2026-11-28T10:00:00Z', '--until', '2026-11-28T09:00:00Z'], '--until must be after --since'],
    [['status'], 'reparse status takes the job id'],
    [['cancel'], 'reparse cancel takes the job id'],
    [['status', 'job-1'], 'reparse status takes the job id (a UUID'],
    [['status', '00000000-0000-4000-8000-000000000000', '--watcher', '127.0.0.1:50052'], 'needs SERVICE_TOKEN'],
  ])('refuses %j with exit code 2, saying why, before touching any database', async (argv, message) => {
    const { code, err } = await refused(argv);
    expect(code).toBe(2);
    expect(err).toContain(message);
    expect(err).toContain(REPARSE_USAGE.split('\n')[0]);
  });
});
