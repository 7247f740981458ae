import type { LanguageCode, LocaleWords } from '../types.js';
import { de } from './de.js';
import { en } from './en.js';
import { es } from './es.js';
import { fr } from './fr.js';
import { it } from './it.js';
import { ja } from './ja.js';
import { pl } from './pl.js';
import { pt } from './pt.js';

/** The words table of every language, one file each. */
export const WORDS: Readonly<Record<LanguageCode, LocaleWords>> = { en, de, fr, it, es, pt, ja, pl };
