/**
 * The page kinds the operator view offers (ARCHIVED_PAGE_KINDS, in the contract because the console
 * may not import the core) are the core's page kinds: a kind added to the core and not to the list
 * would be a kind whose archived pages no operator could look up.
 */
import { describe, expect, it } from 'vitest';
import { ARCHIVED_PAGE_KINDS } from '@retail/contract/page-archive-handoff';
import { DEFAULT_TTL_SECONDS } from '../../core/src/cache/page-cache.js';

describe('the archive\'s page kinds', () => {
  it('are exactly the kinds the core fetches', () => {
    expect([...ARCHIVED_PAGE_KINDS].sort()).toEqual(Object.keys(DEFAULT_TTL_SECONDS).sort());
  });
});
