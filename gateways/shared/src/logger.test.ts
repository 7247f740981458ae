import { Writable } from 'node:stream';
import { context, trace } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createGatewayLogger } from './logger.js';

const manager = new AsyncLocalStorageContextManager();
beforeAll(() => void context.setGlobalContextManager(manager.enable()));
afterAll(() => {
  manager.disable();
  context.disable();
});

describe('gateway logger', () => {
  it('adds the active trace id to lines written inside a span, and only there', () => {
    const lines: string[] = [];
    const sink = new Writable({ write: (chunk, _enc, done) => (lines.push(String(chunk)), done()) });
    const logger = createGatewayLogger('test-gateway', 'info', sink);
    const spanContext = { traceId: '4bf92f3577b34da6a3ce929d0e0e4736', spanId: '00f067aa0ba902b7', traceFlags: 1 };
    context.with(trace.setSpanContext(context.active(), spanContext), () => logger.info('inside'));
    logger.info('outside');
    expect(JSON.parse(lines[0]!)).toMatchObject({ msg: 'inside', service: 'test-gateway', traceId: spanContext.traceId });
    expect(JSON.parse(lines[1]!)).not.toHaveProperty('traceId');
  });
});
