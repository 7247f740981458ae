export { createMcpGateway, type McpGatewayOptions, MCP_PATH } from './gateway.js';
export { DEFAULT_BODY_LIMIT_BYTES } from '@retail/gateway-shared';
export { createMcpApp, type McpAppOptions } from './app.js';
export { TOOLS, operationOfTool, outputSchema } from './tools.js';
export { DEFAULT_LIST_LIMIT, MAX_LIST_LIMIT, cursorAt } from './answer-arguments.js';
export { compactRecord } from './compact-record.js';
export { listingSettingsOf } from './listing-settings.js';
export { DEFAULT_TOOLSETS, TOOLSETS, TOOLSET_NAMES, type ToolsetName } from './toolsets.js';
