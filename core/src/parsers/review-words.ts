import type { LanguageCode } from '../marketplaces/types.js';

/*
 * Review-page words the marketplace table does not carry (kept here, beside the only parser that
 * reads them): month names for review dates and the word for "one" in helpful-vote lines
 * ("One person found this helpful", "Eine Person fand …", "Una persona …").
 */
export const MONTHS: Record<LanguageCode, readonly string[]> = {
  en: ['january', 'february', 'march', 'april', 'may', 'june', 'july', 'august', 'september', 'october', 'november', 'december'],
  de: ['januar', 'februar', 'märz', 'april', 'mai', 'juni', 'juli', 'august', 'september', 'oktober', 'november', 'dezember'],
  fr: ['janvier', 'février', 'mars', 'avril', 'mai', 'juin', 'juillet', 'août', 'septembre', 'octobre', 'novembre', 'décembre'],
  it: ['gennaio', 'febbraio', 'marzo', 'aprile', 'maggio', 'giugno', 'luglio', 'agosto', 'settembre', 'ottobre', 'novembre', 'dicembre'],
  es: ['enero', 'febrero', 'marzo', 'abril', 'mayo', 'junio', 'julio', 'agosto', 'septiembre', 'octubre', 'noviembre', 'diciembre'],
  pt: ['janeiro', 'fevereiro', 'março', 'abril', 'maio', 'junho', 'julho', 'agosto', 'setembro', 'outubro', 'novembro', 'dezembro'],
  // Polish dates use the genitive ("3 maja 2023").
  pl: ['stycznia', 'lutego', 'marca', 'kwietnia', 'maja', 'czerwca', 'lipca', 'sierpnia', 'września', 'października', 'listopada', 'grudnia'],
  ja: [],
};

/** Words meaning a single helpful vote. */
export const ONE_PERSON = /^(one|a|eine|une|una|uma|jedna|1)\b|^a una persona/i;

/** A review date as ISO 8601 (`2024-07-01`) from "Reviewed in … on July 1, 2024", "14 novembre 2018", "2020年5月3日…". */
export function reviewDate(text: string | undefined, language: LanguageCode): string | undefined {
  if (!text) return undefined;
  const ymd = /(\d{4})年(\d{1,2})月(\d{1,2})日/.exec(text);
  if (ymd) return iso(Number(ymd[1]), Number(ymd[2]), Number(ymd[3]));
  const lower = text.toLowerCase();
  for (const { month, monthFirst, dayFirst } of datePatterns(language)) {
    const m = monthFirst.exec(lower);
    if (m) return iso(Number(m[2]), month, Number(m[1]));
    const d = dayFirst.exec(lower);
    if (d) return iso(Number(d[2]), month, Number(d[1]));
  }
  return undefined;
}

interface DatePattern {
  readonly month: number;
  readonly monthFirst: RegExp;
  readonly dayFirst: RegExp;
}

/** Compiled once per marketplace language: a review list asks for up to 2 × 168 patterns per review. */
const DATE_PATTERNS = new Map<LanguageCode, readonly DatePattern[]>();

/** Every language's month names, the marketplace's language first (pages can be shown in another: amazon.es in Portuguese). */
function datePatterns(language: LanguageCode): readonly DatePattern[] {
  let patterns = DATE_PATTERNS.get(language);
  if (!patterns) {
    const others = (Object.keys(MONTHS) as LanguageCode[]).filter((l) => l !== language).flatMap((l) => MONTHS[l]);
    patterns = [...MONTHS[language], ...others].map((name, i) => ({
      month: (i % 12) + 1,
      // "July 1, 2024" (month first) or "1. Mai 2019" / "3 de maio de 2020" (day first).
      monthFirst: new RegExp(`${name}\\s+(\\d{1,2}),?\\s+(\\d{4})`),
      dayFirst: new RegExp(`(\\d{1,2})\\.?\\s+(?:de\\s+)?${name}\\s+(?:de\\s+)?(\\d{4})`),
    }));
    DATE_PATTERNS.set(language, patterns);
  }
  return patterns;
}

function iso(year: number, month: number, day: number): string | undefined {
  if (month < 1 || month > 12 || day < 1 || day > 31) return undefined;
  return `${year}-${String(month).padStart(2, '0')}-${String(day).padStart(2, '0')}`;
}
