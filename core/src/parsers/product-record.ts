import type { MessageInitShape } from '@bufbuild/protobuf';
import type { ProductSchema } from '@retail/contract';

/** The product record of the contract, as the product page's readers build it. */
export type ProductInit = MessageInitShape<typeof ProductSchema>;
