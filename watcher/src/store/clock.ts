/** Where the store reads "now" for the times it writes; tests pass a fake one. */
export type Clock = () => Date;

export const systemClock: Clock = () => new Date();
