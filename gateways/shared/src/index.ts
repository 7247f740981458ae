export * from './registry.js';
export * from './parameters.js';
export * from './schemas.js';
export * from './core-client.js';
export * from './errors.js';
export * from './pipeline.js';
export * from './health.js';
export * from './logger.js';
