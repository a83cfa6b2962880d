import { findMediasoupWorker } from './mediasoup-worker.js';

// mediasoup reads MEDIASOUP_WORKER_BIN once, when it is first imported: set it before any test file imports it.
// A test file may still override it first thing with vi.hoisted (the no-worker test does).
const found = findMediasoupWorker();
if (found) process.env.MEDIASOUP_WORKER_BIN = found;
