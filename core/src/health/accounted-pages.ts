import { isCoreError } from '../errors.js';
import type { ParsedPageSource } from '../cache/parsed-pages.js';
import { outcomeClassOf } from '../resilience/outcome-class.js';
import type { FieldHealth } from './field-health.js';

/**
 * The parsed-page source with every parse accounted (issue 23). It wraps the parse step, which runs
 * once per page actually fetched (a cache hit or a caller sharing another's fetch is no new parse),
 * and sees its outcome where the parse result is produced, so the parsers know nothing of it:
 *
 * - a record → its declared fields are counted;
 * - an unparseable page (the operation's `usable` check or the parser refused it) → a parse with
 *   none of its fields;
 * - anything else (a 404, a non-2xx status, a cancelled call) → not a parse. Blocked pages never
 *   reach this step: the upstream client classifies them before any parse.
 */
export function withFieldHealth(source: ParsedPageSource, health: Pick<FieldHealth, 'record'>): ParsedPageSource {
  return {
    parsed(request, parser, parse) {
      const marketplace = request.marketplace.code;
      return source.parsed(request, parser, async (page, signal) => {
        try {
          const value = await parse(page, signal);
          health.record(marketplace, parser.id, { record: value });
          return value;
        } catch (error) {
          if (isCoreError(error) && outcomeClassOf(error) === 'unparseable') health.record(marketplace, parser.id, 'unparseable');
          throw error;
        }
      });
    },
  };
}
