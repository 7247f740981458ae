import { createCoreClient } from '@retail/gateway-shared';
import { startStubCore } from '@retail/gateway-shared/testing/stub-core';
import { createMetering } from '@retail/metering';
import { createGraphqlApp } from './app.js';
import { createMcpApp } from '@retail/mcp';
import express from 'express';

const core = await startStubCore({ serviceToken: 't', handlers: { GetProduct: () => ({ retailProduct: { title: 'x', asin: 'B08KTZ8249' } }) } });
const metering = await createMetering();
const { accountId } = await metering.admin.createAccount({ units: 1000, plan: 'unlimited' });
const { key } = await metering.admin.createKey(accountId);
const client = createCoreClient({ address: core.address, serviceToken: 't' });
const app = express();
app.use(await createGraphqlApp({ core: client, metering }));
const mcp = createMcpApp({ core: client, metering });
const server = app.listen(Number(process.env.PORT), '127.0.0.1');
const server2 = mcp.listen(Number(process.env.PORT) + 1, '127.0.0.1');
console.log(key);
