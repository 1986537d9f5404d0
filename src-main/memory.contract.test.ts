import { createMemoryTransport } from '../src-shared/ipc/host.ts';
import { describeContract } from './contract.suite.ts';

describeContract('the in-memory transport', async (handlers) => {
  const transport = createMemoryTransport(handlers);
  return { transport, emit: (event, payload) => transport.emit(event, payload), close: async () => {} };
});
