/**
 * A fixed product history for the Watches page's tests, as the watcher's proto points (oldest first,
 * hourly, ending now): price 10 for 12 h, 8 for 12 h, out of stock for 12 h (no price), then 9,
 * with two points of the last phase marked SUSPECT: an unconfirmed price of 90 (SUSPECT_HOURS).
 */
import type { MessageInitShape } from '@bufbuild/protobuf';
import { timestampFromMs } from '@bufbuild/protobuf/wkt';
import { HistoryPointQuality, type ProductHistoryPointSchema } from '@retail/contract';

export const HISTORY_HOURS = 48;
/** The indexes of the points marked suspect (an unconfirmed spike to 90 while the price was 9). */
export const SUSPECT_HOURS: readonly number[] = [40, 41];
const HOUR = 3_600_000;

export function fixedHistory(end: number = Date.now()): Array<MessageInitShape<typeof ProductHistoryPointSchema>> {
  return Array.from({ length: HISTORY_HOURS }, (_, i) => {
    const phase = Math.floor((i * 4) / HISTORY_HOURS);
    const inStock = phase !== 2;
    const suspect = SUSPECT_HOURS.includes(i);
    return {
      at: timestampFromMs(end - (HISTORY_HOURS - 1 - i) * HOUR),
      ...(inStock ? { price: { value: suspect ? 90 : [10, 8, 0, 9][phase]!, currency: 'USD' }, buyboxSellerId: 'ATVPDKIKX0DER' } : {}),
      listPrice: { value: 12, currency: 'USD' },
      isInStock: inStock,
      quality: suspect ? HistoryPointQuality.SUSPECT : HistoryPointQuality.OK,
      ...(suspect && { suspectFields: ['price'] }),
    };
  });
}
