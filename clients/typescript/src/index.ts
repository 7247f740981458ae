/**
 * @retail/client: typed gRPC clients of the retail data service for internal services. The message,
 * enum and service types are the contract's generated code (protoc-gen-es, `npm run generate`),
 * re-exported so that one import serves a caller; nothing here is generated twice.
 */
export { createRetailClient, createWatchClient, ACCOUNT_METADATA_KEY, type RetailClient, type RetailClientOptions, type WatchClient, type WatchClientOptions } from './create-client.js';
export { RetailError, toRetailError } from './retail-error.js';
export { AddressError, baseUrlOf } from './address.js';
export * from '@retail/contract/gen/retail/v1/common_pb';
export * from '@retail/contract/gen/retail/v1/product_pb';
export * from '@retail/contract/gen/retail/v1/catalog_pb';
export * from '@retail/contract/gen/retail/v1/errors_pb';
export * from '@retail/contract/gen/retail/v1/service_pb';
export * from '@retail/contract/gen/retail/v1/watch_pb';
