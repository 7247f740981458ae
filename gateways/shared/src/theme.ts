/**
 * Where the shared stylesheet of the browser pages is (public/theme.css beside this module: src/ when
 * run from source, dist/ in an image, which the Dockerfile copies there). The console serves it as
 * `theme.css` beside its page, the REST gateway under `/api/docs/`.
 */
import { fileURLToPath } from 'node:url';

export const THEME_STYLESHEET = fileURLToPath(new URL('./public/theme.css', import.meta.url));
