// Plain Node cannot start a worker written in TypeScript (Bun can, and the
// package ships compiled JavaScript). When the sources run under Node, the pool
// starts this file instead: it compiles the real worker through tsx and hands
// its tasks to piscina. piscina awaits a named export that is a promise.
import { workerData } from 'node:worker_threads';
import { tsImport } from 'tsx/esm/api';

const tasks = tsImport(workerData.tsWorkerFile, import.meta.url);

export const analyzeUnits = tasks.then((module) => module.analyzeUnits);
export const finalizeExtraction = tasks.then((module) => module.finalizeExtraction);
export const fitContext = tasks.then((module) => module.fitContext);
export const warmUp = tasks.then((module) => module.warmUp);
export const scanMemoryFolder = tasks.then((module) => module.scanMemoryFolder);
export const indexMemoryFiles = tasks.then((module) => module.indexMemoryFiles);
export const loadMemoryIndex = tasks.then((module) => module.loadMemoryIndex);
export const saveMemoryIndex = tasks.then((module) => module.saveMemoryIndex);
export const searchMemoryIndex = tasks.then((module) => module.searchMemoryIndex);
export default tasks.then((module) => module.default);
