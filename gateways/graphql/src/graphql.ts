/**
 * graphql-js, always as the one CommonJS instance Apollo Server loads. graphql 16 ships both
 * index.js and index.mjs; Node resolves `graphql` to index.js, but Vite (vitest) picks index.mjs
 * through the "module" field, and two instances refuse each other's schemas ("Cannot use
 * GraphQLSchema from another module or realm"). Every file here imports graphql through this one.
 */
export * from 'graphql/index.js';
// The executor's own field collection (fragments, @skip/@include), so planning sees what execution runs.
export { collectFields, collectSubfields } from 'graphql/execution/collectFields.js';
