import { readFile, rm } from 'node:fs/promises';
import path from 'node:path';
import { writeWholeFile } from '../../../platform/files/whole-file.js';

/** Reporters' screenshots, under DATA_DIR/evidence/reports (owner-only), beside matching's server snapshots. */
const REPORTS_DIR = path.join('evidence', 'reports');

export const reportFileName = (screenshotId: string) => `${screenshotId}.jpg`;

export async function writeReportFile(dataDir: string, file: string, bytes: Buffer): Promise<void> {
  await writeWholeFile(path.join(dataDir, REPORTS_DIR, path.basename(file)), bytes);
}

export function readReportFile(dataDir: string, file: string): Promise<Buffer> {
  return readFile(path.join(dataDir, REPORTS_DIR, path.basename(file)));
}

export async function removeReportFile(dataDir: string, file: string): Promise<void> {
  await rm(path.join(dataDir, REPORTS_DIR, path.basename(file)), { force: true });
}
