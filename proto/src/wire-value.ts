/** JSON value of the wire format (docs/contract.md, Wire JSON); its own module so the renderer and field selection share it without importing each other. */
export type WireValue = null | boolean | number | string | WireValue[] | { [key: string]: WireValue };
export type WireObject = { [key: string]: WireValue };

/** Name of the response field that carries ResponseMeta; it goes to headers, never into `data`. */
export const META_FIELD = 'meta';
