/** The MCP gateway as a standalone express app (its own deployment). */
import type express from 'express';
import { createGatewayApp } from '@retail/gateway-shared';
import { type McpGatewayOptions, createMcpGateway } from './gateway.js';
import { jsonRpcError } from './rpc-errors.js';

export interface McpAppOptions extends McpGatewayOptions {
  /** Readiness of the dependencies (core health, ledger). */
  readonly ready?: () => Promise<boolean>;
}

export function createMcpApp(options: McpAppOptions): express.Express {
  return createGatewayApp({
    router: createMcpGateway(options),
    ready: options.ready,
    marketplace: () => options.core.marketplaceHealth(),
    // An unexpected failure still answers in the protocol's own shape.
    internalError: () => jsonRpcError(null, -32603, 'Internal error'),
  });
}
