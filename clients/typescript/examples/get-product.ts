// Looks up one product through the core and prints its title and price; a product the marketplace
// does not have is a RetailError with reason NOT_FOUND.
import { Domain, ErrorReason, RetailError, createRetailClient } from '@retail/client';

const client = createRetailClient({
  address: process.env.RETAIL_CORE_ADDRESS ?? '127.0.0.1:50051',
  serviceToken: process.env.SERVICE_TOKEN ?? '',
});

for (const asin of process.argv.slice(2)) {
  try {
    const { retailProduct } = await client.getProduct({ asin, domain: Domain.DE });
    console.log(`${asin}: ${retailProduct?.title} (${retailProduct?.price?.display ?? 'no price'})`);
  } catch (error) {
    if (!(error instanceof RetailError)) throw error;
    if (error.reason === ErrorReason.NOT_FOUND) console.log(`${asin}: not on the marketplace`);
    else console.log(`${asin}: ${error.reasonName} ${error.message} [${error.fieldPath.join('.')}]`);
  }
}
