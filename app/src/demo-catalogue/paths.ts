/**
 * Where the demo catalogue is served (stable paths: the start banner, the docs and the tests point
 * here). A stack that is not in demo mode answers both with "no catalogue here" instead of a bare 404.
 */

/** The catalogue as a page for people. */
export const DEMO_CATALOGUE_PATH = '/demo';
/** The same catalogue as a JSON document for programs. */
export const DEMO_CATALOGUE_JSON_PATH = '/demo/catalogue.json';
/** The page's stylesheets and script. */
export const DEMO_ASSETS_PATH = '/demo/assets';
