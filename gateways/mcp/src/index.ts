export { createMcpGateway, type McpGatewayOptions, MCP_PATH, DEFAULT_BODY_LIMIT_BYTES } from './gateway.js';
export { createMcpApp, type McpAppOptions } from './app.js';
export { TOOLS, operationOfTool, outputSchema } from './tools.js';
