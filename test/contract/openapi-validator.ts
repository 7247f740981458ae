/**
 * Validates real REST responses against the served OpenAPI document with Ajv (draft 2020-12, as
 * OpenAPI 3.1 uses): the document is added whole under an id so its local $refs resolve.
 */
import type { ValidateFunction } from 'ajv/dist/2020.js';
import { createSchemaValidator } from '../harness/json-schema.js';

const DOC_ID = 'https://retail.invalid/openapi.json';

const pointer = (...parts: string[]) => parts.map((p) => p.replace(/~/g, '~0').replace(/\//g, '~1')).join('/');

export interface ResponseValidator {
  /**
   * Errors (empty when valid) of a body for `method path` (default GET; path as the document writes
   * it) answering `status` as `mediaType` (default application/json). An NDJSON line is checked
   * against its component (`RetailBatchEntry`): the NDJSON media types' schemas validate nothing.
   */
  check(path: string, status: number, body: unknown, method?: string, mediaType?: string): string[];
  /** Errors (empty when valid) of a value against one of the document's component schemas (`RetailBatchEntry`). */
  checkComponent(name: string, value: unknown): string[];
}

export function createResponseValidator(doc: Record<string, unknown>): ResponseValidator {
  const ajv = createSchemaValidator();
  ajv.addSchema({ ...doc, $id: DOC_ID });
  const cache = new Map<string, ValidateFunction>();
  const paths = doc.paths as Record<string, Record<string, { responses: Record<string, { $ref?: string }> }>>;
  return {
    check(path, status, body, method = 'get', mediaType = 'application/json') {
      const op = paths[path]?.[method];
      if (!op) return [`${method.toUpperCase()} ${path} is not in the document`];
      const entry = op.responses[String(status)];
      if (!entry) return [`status ${status} of ${path} is not documented`];
      const base = entry.$ref ? entry.$ref : `#/${pointer('paths', path, method, 'responses', String(status))}`;
      const ref = `${DOC_ID}${base}/content/${pointer(mediaType)}/schema`;
      let validate = cache.get(ref);
      if (!validate) {
        validate = ajv.compile({ $ref: ref });
        cache.set(ref, validate);
      }
      return validate(body) ? [] : (validate.errors ?? []).map((e) => `${e.instancePath} ${e.message}`);
    },
    checkComponent(name, value) {
      const ref = `${DOC_ID}#/${pointer('components', 'schemas', name)}`;
      let validate = cache.get(ref);
      if (!validate) {
        validate = ajv.compile({ $ref: ref });
        cache.set(ref, validate);
      }
      return validate(value) ? [] : (validate.errors ?? []).map((e) => `${e.instancePath} ${e.message}`);
    },
  };
}
