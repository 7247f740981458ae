/**
 * The REST routes as the registry declares them: each operation's method and path (`{id}` in the
 * proto becomes express's `:id`), in an order where a literal segment wins over a parameter
 * (`/watches/events` before `/watches/:id`), and which methods each known path answers, for 405's
 * Allow header.
 */
import type { HttpMethod, Operation } from '@retail/gateway-shared';

/** The express path of an operation: `/api/retail/watches/{watch_id}` → `/api/retail/watches/:watch_id`. */
export function expressPath(op: Operation): string {
  return op.restPath.replace(/\{([a-z_]+)\}/g, ':$1');
}

/** Operations in registration order: fewer path parameters first, so literal paths are matched first. */
export function routeOrder(operations: readonly Operation[]): Operation[] {
  return [...operations].sort((a, b) => a.pathParameters.length - b.pathParameters.length);
}

/** One path template as a matcher: literal segments exact, `{x}` one non-empty segment. */
function templateMatcher(template: string): RegExp {
  const escaped = template.split(/\{[a-z_]+\}/).map((part) => part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'));
  return new RegExp(`^${escaped.join('[^/]+')}$`);
}

export interface MethodTable {
  /** The methods a path answers (GET first), or undefined when no operation owns it. */
  allowed(path: string): readonly HttpMethod[] | undefined;
}

/**
 * Which methods each path answers. A literal path owns its methods alone: PATCH on
 * `/api/retail/watches/events` is 405 (GET only), not an update of a watch whose id is "events".
 */
export function createMethodTable(operations: readonly Operation[], getOnlyPaths: readonly string[], postOnlyPaths: readonly string[] = []): MethodTable {
  const byTemplate = new Map<string, Set<HttpMethod>>();
  const add = (template: string, method: HttpMethod) => byTemplate.set(template, (byTemplate.get(template) ?? new Set()).add(method));
  for (const op of operations) add(op.restPath, op.httpMethod);
  for (const path of getOnlyPaths) add(path, 'GET');
  for (const path of postOnlyPaths) add(path, 'POST');
  const order: HttpMethod[] = ['GET', 'POST', 'PATCH', 'DELETE'];
  const sorted = (methods: Set<HttpMethod>) => order.filter((m) => methods.has(m));
  const literal = new Map([...byTemplate].filter(([t]) => !t.includes('{')).map(([t, m]) => [t, sorted(m)]));
  const templated = [...byTemplate].filter(([t]) => t.includes('{')).map(([t, m]) => ({ matcher: templateMatcher(t), methods: sorted(m) }));
  return {
    allowed: (path) => literal.get(path) ?? templated.find((t) => t.matcher.test(path))?.methods,
  };
}
