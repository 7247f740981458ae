/** The drivers the contract suite runs against; GraphQL and MCP add theirs here. */
import type { DriverFactory } from '../driver.js';
import { restDriver } from './rest.js';

export const DRIVERS: readonly DriverFactory[] = [restDriver];
