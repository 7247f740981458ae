import { describe, expect, it } from 'vitest';
import { reviewDate } from './review-words.js';

describe('review dates to ISO 8601', () => {
  it.each([
    ['en', 'Reviewed in the United States on July 1, 2024', '2024-07-01'],
    ['en', 'Reviewed in India on 3 March 2026', '2026-03-03'],
    ['de', 'Rezension aus Deutschland vom 19. März 2018', '2018-03-19'],
    ['fr', 'Commenté en France le 5 février 2020', '2020-02-05'],
    ['it', '14 novembre 2018', '2018-11-14'],
    ['es', 'Revisado en España el 3 de mayo de 2020', '2020-05-03'],
    ['es', 'Avaliado em Espanha em 21 de dezembro de 2020', '2020-12-21'],
    ['pt', 'Avaliado no Brasil em 11 de abril de 2021', '2021-04-11'],
    ['ja', '2020年5月3日に日本でレビュー済み', '2020-05-03'],
    ['pl', 'Zrecenzowano w Polsce dnia 3 maja 2023', '2023-05-03'],
  ] as const)('%s "%s"', (language, text, iso) => {
    expect(reviewDate(text, language)).toBe(iso);
  });

  it('answers undefined when no date is shown', () => {
    expect(reviewDate('Reviewed recently', 'en')).toBeUndefined();
    expect(reviewDate(undefined, 'en')).toBeUndefined();
  });
});
