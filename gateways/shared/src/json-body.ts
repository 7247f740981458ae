/**
 * The JSON request body of the GraphQL and MCP gateways: express.json with a size limit, read
 * whatever the Content-Type says (each gateway decides what it requires), any JSON value at the top
 * (`strict: false`: the protocol, not the parser, refuses a bare string). A body that cannot be
 * read is described once here and answered in each gateway's own shape.
 */
import express, { type NextFunction, type Request, type RequestHandler, type Response } from 'express';

/** Default body size limit: far above any real query or tool call, far below anything that costs memory. */
export const DEFAULT_BODY_LIMIT_BYTES = 64 * 1024;

/** Why a body was refused, as HTTP says it. */
export interface BodyRefusal {
  readonly status: 400 | 413 | 415;
  readonly message: string;
}

function refusalOf(err: unknown, limitBytes: number): BodyRefusal {
  const type = (err as { type?: string }).type;
  if (type === 'entity.too.large') return { status: 413, message: `the request body exceeds the limit of ${limitBytes} bytes` };
  if (type === 'entity.parse.failed') return { status: 400, message: 'the request body is not valid JSON' };
  if (type === 'encoding.unsupported' || type === 'charset.unsupported') return { status: 415, message: 'unsupported body encoding' };
  return { status: 400, message: 'the request body could not be read' };
}

export function jsonBody(refuse: (res: Response, refusal: BodyRefusal) => void, limitBytes = DEFAULT_BODY_LIMIT_BYTES): RequestHandler {
  const parse = express.json({ limit: limitBytes, strict: false, type: () => true });
  return (req: Request, res: Response, next: NextFunction): void => {
    parse(req, res, (err?: unknown) => (err ? refuse(res, refusalOf(err, limitBytes)) : next()));
  };
}
