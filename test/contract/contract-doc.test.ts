/** docs/contract.md's operation tables and records are the proto's, as generated now. */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { CONTRACT_DOC, renderContractTables, withSection } from '../../scripts/contract-tables.js';

describe('docs/contract.md', () => {
  it('carries the generated tables of the current proto (run scripts/contract-tables.ts when this fails)', () => {
    const committed = readFileSync(CONTRACT_DOC, 'utf8');
    expect(withSection(committed, renderContractTables())).toBe(committed);
  });
});
