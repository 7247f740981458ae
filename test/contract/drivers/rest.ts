/** REST driver: GET with query parameters; every response is validated against /api/openapi.json. */
import { registryOperation } from '@retail/gateway-shared';
import { createRestGateway } from '@retail/rest';
import type { Driver, DriverFactory, DriverResult } from '../driver.js';
import { createResponseValidator } from '../openapi-validator.js';

function encode(params: Record<string, unknown>): string {
  const query = new URLSearchParams();
  for (const [name, value] of Object.entries(params)) {
    if (value === undefined || value === null) continue;
    query.append(name, Array.isArray(value) ? value.join(',') : String(value));
  }
  const text = query.toString();
  return text ? `?${text}` : '';
}

export const restDriver: DriverFactory = {
  name: 'rest',
  mount: (app, deps) => {
    app.use(createRestGateway({ core: deps.core, metering: deps.metering }));
  },
  async create(stack) {
    const doc = (await (await fetch(`${stack.baseUrl}/api/openapi.json`)).json()) as Record<string, unknown>;
    const validator = createResponseValidator(doc);
    const driver: Driver = {
      name: 'rest',
      async call(opName, params, auth) {
        const op = registryOperation(opName);
        const headers: Record<string, string> = { ...(auth.key !== undefined ? { 'API-KEY': auth.key } : {}), ...auth.headers };
        const res = await fetch(`${stack.baseUrl}${op.restPath}${encode(params)}`, { headers });
        const text = await res.text();
        const violations: string[] = [];
        let body: { data?: Record<string, unknown>; errors?: DriverResult['errors']; success?: boolean } = {};
        try {
          body = JSON.parse(text) as typeof body;
        } catch {
          violations.push(`body is not JSON: ${text.slice(0, 80)}`);
        }
        if (!(res.headers.get('content-type') ?? '').startsWith('application/json')) violations.push(`content-type ${res.headers.get('content-type')}`);
        violations.push(...validator.check(op.restPath, res.status, body));
        if (!res.headers.get('x-request-id')) violations.push('no X-Request-Id');
        return {
          status: res.status,
          ...(body.data ? { data: body.data } : {}),
          ...(body.errors ? { errors: body.errors } : {}),
          headers: res.headers,
          unitsCharged: Number(res.headers.get('x-units-charged') ?? 0),
          violations,
        };
      },
    };
    return driver;
  },
};
