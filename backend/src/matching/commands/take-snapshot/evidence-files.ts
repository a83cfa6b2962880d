import { rm } from 'node:fs/promises';
import path from 'node:path';

/** Where snapshot JPEGs are kept, under DATA_DIR (owner-only). */
export const EVIDENCE_DIR = 'evidence';

export const evidencePath = (dataDir: string, file: string): string => path.join(dataDir, EVIDENCE_DIR, file);

/** Deletes a snapshot's JPEG; one already gone is fine. */
export async function removeEvidenceFile(dataDir: string, file: string): Promise<void> {
  await rm(evidencePath(dataDir, file), { force: true });
}
