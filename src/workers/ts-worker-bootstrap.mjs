// Plain Node cannot start a worker written in TypeScript (Bun can, and the
// package ships compiled JavaScript). When the sources run under Node, the pool
// starts this file instead: it compiles the real worker through tsx and hands
// its task dispatcher to piscina. piscina awaits an export that is a promise.
import { workerData } from 'node:worker_threads';
import { tsImport } from 'tsx/esm/api';

const tasks = tsImport(workerData.tsWorkerFile, import.meta.url);

export default tasks.then((module) => module.default);
