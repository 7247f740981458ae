/**
 * The abstract client the contract suite is written against: one per interface (REST here;
 * GraphQL and MCP drivers plug in beside it). Each driver speaks its own protocol and reports the
 * outcome in the same shape, so one suite checks the same data, errors and unit accounting.
 */
import type { Interface } from '@retail/metering/api';
import type { Mount, Stack } from '../harness/stack.js';

export interface EnvelopeEntry {
  readonly code: number;
  readonly message: string;
  readonly path?: readonly string[];
}

export interface DriverResult {
  /** The HTTP status the same failure has on REST (docs/contract.md); 200 on success. */
  readonly status: number;
  /** The `data` object on success. */
  readonly data?: Record<string, unknown>;
  /** The envelope entries on failure. */
  readonly errors?: readonly EnvelopeEntry[];
  readonly headers: Headers;
  /** Units the response says were charged (0 when it says nothing). */
  readonly unitsCharged: number;
  /** Problems with the response itself (schema violations, protocol shape); empty when clean. */
  readonly violations: readonly string[];
}

export interface Auth {
  /** The key, sent in the interface's usual header. */
  readonly key?: string;
  /** Extra raw headers (credential variants: Bearer, conflicting keys). */
  readonly headers?: Record<string, string>;
}

export interface Driver {
  readonly name: Interface;
  /**
   * Calls operation `opName` (RPC name) with JSON-typed parameters (strings, numbers, booleans,
   * arrays for lists, enum names); the driver encodes them as its interface does.
   */
  call(opName: string, params: Record<string, unknown>, auth: Auth): Promise<DriverResult>;
  /**
   * The `data` this interface answers where another answers `data` in full: MCP's default answer is
   * the compact record of it (docs/mcp.md); the other interfaces answer it as it is.
   */
  answerOf?(opName: string, data: Record<string, unknown>): Record<string, unknown>;
}

export interface DriverFactory {
  readonly name: Interface;
  /** Mounts the gateway on the stack's app. */
  readonly mount: Mount;
  create(stack: Stack): Promise<Driver>;
}
