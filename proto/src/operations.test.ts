import { describe, expect, it } from 'vitest';
import { OPERATIONS } from './operations.js';

describe('operations declared in the proto', () => {
  it('are the 17 of docs/contract.md, each with all client-facing names', () => {
    expect(OPERATIONS).toHaveLength(17);
    for (const op of OPERATIONS) {
      expect(op.options.restPath, op.name).toMatch(/^\/api\/retail\//);
      expect(op.options.operationId, op.name).toMatch(/^get_Retail/);
      expect(op.options.mcpTool, op.name).toMatch(/^retail_/);
      expect(op.options.graphqlFields.length, op.name).toBeGreaterThan(0);
      expect(op.options.summary, op.name).not.toBe('');
    }
  });

  it('never reuse a REST path, operationId or tool name', () => {
    for (const key of ['restPath', 'operationId', 'mcpTool'] as const) {
      const values = OPERATIONS.map((op) => op.options[key]);
      expect(new Set(values).size, key).toBe(values.length);
    }
  });

  it('have one request and one response message each, with a data root and meta', () => {
    for (const op of OPERATIONS) {
      expect(op.method.input.typeName).toBe(`retail.v1.${op.name}Request`);
      expect(op.method.output.typeName).toBe(`retail.v1.${op.name}Response`);
      expect(op.method.output.fields.map((f) => f.name)).toContain('meta');
      expect(op.method.output.fields).toHaveLength(2);
    }
  });
});
