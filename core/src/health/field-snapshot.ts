import type { FieldLevel } from './field-declarations.js';

/** What the service knows of one (marketplace, kind)'s fields: the shared window, read (field-health.ts). */
export interface FieldState {
  readonly name: string;
  readonly level: FieldLevel;
  /** Parses in the window that produced it. */
  readonly present: number;
  /** present / parses in the window (1 while the window is empty). */
  readonly completeness: number;
  /** What completeness is normal: learned once enough parses were seen, declared before. */
  readonly baseline: number;
  readonly baselineLearned: boolean;
}

export interface FieldSnapshot {
  readonly marketplace: string;
  readonly kind: string;
  /** Parses in the window. */
  readonly parses: number;
  readonly fields: readonly FieldState[];
}
