export * from './registry.js';
export * from './parameters.js';
export * from './schemas.js';
