/*
 * Helpers for sorted lists of element numbers (the page index's tag, class and attribute lists:
 * ascending, no repeats).
 */

/** The empty list, shared by every lookup that finds nothing. */
export const NO_NUMBERS: readonly number[] = [];

/**
 * The first of the positions 0 … count - 1 where `before` turns false, `count` if it never does:
 * a binary search, for a `before` that holds on a leading run of positions and fails on the rest.
 */
export function partitionPoint(count: number, before: (i: number) => boolean): number {
  let lo = 0;
  let hi = count;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (before(mid)) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** The first index of `list` whose value is `value` or more. */
export function lowerBound(list: readonly number[], value: number): number {
  return partitionPoint(list.length, (i) => list[i]! < value);
}

/** The first index of `list` whose value is greater than `value`. */
export function upperBound(list: readonly number[], value: number): number {
  return partitionPoint(list.length, (i) => list[i]! <= value);
}

/** The shorter of two lists (`b` when `a` is missing): the cheaper one to scan. */
export function shorter(a: readonly number[] | undefined, b: readonly number[]): readonly number[] {
  return a && a.length <= b.length ? a : b;
}

/** Appends `value` to the list kept under `key`, starting the list when there is none. */
export function appendTo(map: Map<string, number[]>, key: string, value: number): void {
  const list = map.get(key);
  if (list) list.push(value);
  else map.set(key, [value]);
}

/** Sorts `list` ascending and drops repeats, in place. */
export function sortUnique(list: number[]): void {
  list.sort((a, b) => a - b);
  let w = 0;
  for (let r = 0; r < list.length; r++) if (r === 0 || list[r] !== list[r - 1]) list[w++] = list[r]!;
  list.length = w;
}
