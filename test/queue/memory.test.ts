import { createMemoryBroker, createMemoryJobSystem } from '../../watcher/src/queue/index.js';
import { jobSystemSuite } from './job-system-suite.js';

jobSystemSuite('in-memory twin', () => {
  // One broker per test stands for the Redis that replicas share.
  const broker = createMemoryBroker();
  return {
    open: async () => createMemoryJobSystem({ broker }),
    dispose: async () => broker.dispose(),
  };
});
