/** The worker thread of `copyEventsToCsvFiles`: copies the events into new files, then says how many rows each got. */
import { createWriteStream } from 'node:fs';
import { parentPort, workerData } from 'node:worker_threads';
import { type CopyOutcome, type CopyWork, copyEventsToCsv } from './copy-events.js';

const { connectionString, query, files } = workerData as CopyWork;
const say = (outcome: CopyOutcome) => parentPort!.postMessage(outcome);
// Only this process's user may read them: the log's rows, on their way into the export.
copyEventsToCsv(
  connectionString,
  query,
  files.map((file) => createWriteStream(file, { mode: 0o600 })),
).then(
  (rows) => say({ rows }),
  (error: NodeJS.ErrnoException) => say({ error: error.message, code: error.code }),
);
