// Minimal typings for `compression` (no @types package is installed; package.json is not ours to edit).
declare module 'compression' {
  import type { RequestHandler } from 'express';
  export interface CompressionOptions {
    threshold?: number | string;
    level?: number;
    filter?: (req: import('express').Request, res: import('express').Response) => boolean;
  }
  export default function compression(options?: CompressionOptions): RequestHandler;
}
