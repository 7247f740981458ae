/** Watch ids are UUIDs; a malformed one names no watch and is answered as "not found", not as a database error. */
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export const isWatchId = (id: string): boolean => UUID.test(id);

/** Bigint row ids (events, deliveries) as text. */
export const isRowId = (id: string): boolean => /^[0-9]{1,19}$/.test(id);
