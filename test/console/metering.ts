/** The metering library the console tests run against: the real one, memory store by default. */
import { createMetering, type MeteringOptions } from '@retail/metering';
import type { Metering } from '@retail/metering/api';

export function createTestMetering(options: MeteringOptions = {}): Promise<Metering> {
  return createMetering(options);
}
