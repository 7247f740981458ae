/**
 * A job's JSON body, parsed as it streams in (@streamparser/json): each of `items` is handed over
 * as soon as it is complete and then dropped from the parser's tree, so a 100,000-item body is never
 * one object in memory. Its tokens are watched for the body's outline, which the values alone do
 * not show: the body is an object, `items` is a list, and no other key than `items`, `label` and
 * `webhook` is given (the same refusals as every JSON body of this API).
 */
import type { Readable } from 'node:stream';
import { JSONParser, type ParsedElementInfo, TokenType } from '@streamparser/json';
import { RULE_MESSAGES } from '@retail/contract';
import { type JobItems, displayName } from '@retail/gateway-shared';
import { BodyRefusal } from './job-body-refusal.js';

const TOP_LEVEL_KEYS = new Set(['items', 'label', 'webhook']);

/** Depth, container kinds and the top-level keys of a document, from its tokens. */
function outlineWatcher() {
  const containers: Array<'object' | 'array'> = [];
  let expectKey = false;
  let lastKey: string | undefined;
  let afterColon = false;
  return (token: TokenType, value: unknown) => {
    const depth = containers.length;
    if (depth === 0 && token !== TokenType.LEFT_BRACE && token !== TokenType.SEPARATOR) throw new BodyRefusal(400, 'the request body must be a JSON object');
    if (depth === 1 && afterColon && lastKey === 'items' && token !== TokenType.LEFT_BRACKET) throw new BodyRefusal(400, RULE_MESSAGES.list('items'), ['body', 'items']);
    afterColon = false;
    if (depth === 1 && expectKey && token === TokenType.STRING) {
      lastKey = String(value);
      if (!TOP_LEVEL_KEYS.has(lastKey)) throw new BodyRefusal(400, RULE_MESSAGES.unknownParameter(displayName(lastKey)), ['body', displayName(lastKey)]);
    }
    if (depth === 1 && token === TokenType.COLON) afterColon = true;
    if (token === TokenType.LEFT_BRACE || token === TokenType.LEFT_BRACKET) containers.push(token === TokenType.LEFT_BRACE ? 'object' : 'array');
    if (token === TokenType.RIGHT_BRACE || token === TokenType.RIGHT_BRACKET) containers.pop();
    // The next token of an object at depth 1 is a key after `{` and after `,`.
    expectKey = containers.length === 1 && (token === TokenType.LEFT_BRACE || token === TokenType.COMMA);
  };
}

/** Reads the items into `items`; answers the other top-level values (label, webhook) as given. */
export async function readJsonJob(body: Readable, items: JobItems): Promise<Record<string, unknown>> {
  const parser = new JSONParser({ paths: ['$.items.*', '$.label', '$.webhook'], keepStack: false });
  const outline = outlineWatcher();
  const params: Record<string, unknown> = {};
  let failure: unknown;
  parser.onToken = ({ token, value }) => {
    if (failure === undefined) outline(token, value);
  };
  parser.onValue = (info: ParsedElementInfo) => {
    if (info.stack.length === 2) items.add(info.value, { style: 'rest' });
    else if (typeof info.key === 'string') params[info.key] = info.value;
  };
  parser.onError = (error) => {
    failure ??= error;
  };
  for await (const chunk of body) {
    try {
      parser.write(chunk as Buffer);
    } catch (error) {
      failure ??= error;
    }
    if (failure !== undefined) break;
  }
  if (failure === undefined && !parser.isEnded) {
    try {
      parser.end();
    } catch (error) {
      failure = error;
    }
  }
  if (failure instanceof BodyRefusal) throw failure;
  if (failure !== undefined) throw new BodyRefusal(400, 'the request body is not valid JSON');
  return params;
}
