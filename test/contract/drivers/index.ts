/** The drivers the contract suite runs against; GraphQL and MCP add theirs here. */
import type { DriverFactory } from '../driver.js';
import { graphqlDriver } from './graphql.js';
import { mcpDriver } from './mcp.js';
import { restDriver } from './rest.js';

export const DRIVERS: readonly DriverFactory[] = [restDriver, graphqlDriver, mcpDriver];
