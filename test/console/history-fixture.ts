/**
 * A fixed product history for the Watches page's tests, as the watcher's proto points (oldest first,
 * hourly, ending now): price 10 for 12 h, 8 for 12 h, out of stock for 12 h (no price), then 9.
 */
import type { MessageInitShape } from '@bufbuild/protobuf';
import { timestampFromMs } from '@bufbuild/protobuf/wkt';
import type { ProductHistoryPointSchema } from '@retail/contract';

export const HISTORY_HOURS = 48;
const HOUR = 3_600_000;

export function fixedHistory(end: number = Date.now()): Array<MessageInitShape<typeof ProductHistoryPointSchema>> {
  return Array.from({ length: HISTORY_HOURS }, (_, i) => {
    const phase = Math.floor((i * 4) / HISTORY_HOURS);
    const inStock = phase !== 2;
    return {
      at: timestampFromMs(end - (HISTORY_HOURS - 1 - i) * HOUR),
      ...(inStock ? { price: { value: [10, 8, 0, 9][phase]!, currency: 'USD' }, buyboxSellerId: 'ATVPDKIKX0DER' } : {}),
      listPrice: { value: 12, currency: 'USD' },
      isInStock: inStock,
    };
  });
}
