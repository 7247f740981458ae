/**
 * A fixed product history for the Watches page's tests, as the watcher's proto points (oldest first,
 * hourly, ending now): price 2,500 for 12 h, 2,350 for 12 h, out of stock for 12 h (no price), then
 * 2,399.99; list price 2,599. Four-digit prices, so the chart's axis must fit "$2,500.00" whole. Two
 * points of the last phase are marked SUSPECT: an unconfirmed price of 25,000 (SUSPECT_HOURS).
 */
import type { MessageInitShape } from '@bufbuild/protobuf';
import { timestampFromMs } from '@bufbuild/protobuf/wkt';
import { HistoryPointQuality, type ProductHistoryPointSchema } from '@retail/contract';

export const HISTORY_HOURS = 48;
/** The indexes of the points marked suspect (an unconfirmed spike to 25,000 while the price was 2,399.99). */
export const SUSPECT_HOURS: readonly number[] = [40, 41];
const HOUR = 3_600_000;

export function fixedHistory(end: number = Date.now()): Array<MessageInitShape<typeof ProductHistoryPointSchema>> {
  return Array.from({ length: HISTORY_HOURS }, (_, i) => {
    const phase = Math.floor((i * 4) / HISTORY_HOURS);
    const inStock = phase !== 2;
    const suspect = SUSPECT_HOURS.includes(i);
    return {
      at: timestampFromMs(end - (HISTORY_HOURS - 1 - i) * HOUR),
      ...(inStock ? { price: { value: suspect ? 25000 : [2500, 2350, 0, 2399.99][phase]!, currency: 'USD' }, buyboxSellerId: 'ATVPDKIKX0DER' } : {}),
      listPrice: { value: 2599, currency: 'USD' },
      isInStock: inStock,
      quality: suspect ? HistoryPointQuality.SUSPECT : HistoryPointQuality.OK,
      ...(suspect && { suspectFields: ['price'] }),
    };
  });
}
