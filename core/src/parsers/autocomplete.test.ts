import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { parseAutocompleteJson } from './autocomplete.js';

const fixture = (name: string) => readFileSync(fileURLToPath(new URL(`../../../test/fixtures/pages/autocomplete/${name}`, import.meta.url)), 'utf8');

describe('suggestion endpoint JSON (project fixtures)', () => {
  it('keeps keyword suggestions in order, drops widgets and repeats', () => {
    expect(parseAutocompleteJson(fixture('suggestions-us-iphone.json'))).toEqual([
      { suggestion: 'iphone 15 case' },
      { suggestion: 'iphone charger' },
      { suggestion: 'iphone 16 pro max case' },
      { suggestion: 'iphone 16 screen protector' },
    ]);
  });

  it('reads non-ASCII suggestions (DE)', () => {
    expect(parseAutocompleteJson(fixture('suggestions-de-kaffee.json'))?.map((s) => s.suggestion)).toContain('kaffeemühle elektrisch');
  });

  it('reads the older array answer of /search/complete', () => {
    expect(parseAutocompleteJson('["iph",["iphone 15 case","iphone charger","iphone 15 case"],[{"nodes":[]}],[]]')).toEqual([
      { suggestion: 'iphone 15 case' },
      { suggestion: 'iphone charger' },
    ]);
    expect(parseAutocompleteJson('[1,2,3]')).toBeUndefined();
  });

  it('an empty list is an answer; a body that is not the endpoint JSON is not', () => {
    expect(parseAutocompleteJson(fixture('suggestions-us-empty.json'))).toEqual([]);
    expect(parseAutocompleteJson('<html>Robot Check</html>')).toBeUndefined();
    expect(parseAutocompleteJson('{"error":"bad request"}')).toBeUndefined();
  });
});
