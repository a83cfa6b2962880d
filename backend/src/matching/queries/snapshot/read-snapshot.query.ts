import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { Inject } from '@nestjs/common';
import { type IQueryHandler, Query, QueryHandler } from '@nestjs/cqrs';
import type { Config } from '../../../config/config.js';
import { CONFIG } from '../../../config/config.token.js';

/** Where snapshot JPEGs are kept, under DATA_DIR. */
export const EVIDENCE_DIR = 'evidence';

/** The stored JPEG of a snapshot, or undefined. */
export class ReadSnapshot extends Query<Buffer | undefined> {
  constructor(readonly snapshotId: string) {
    super();
  }
}

@QueryHandler(ReadSnapshot)
export class ReadSnapshotHandler implements IQueryHandler<ReadSnapshot> {
  constructor(@Inject(CONFIG) private readonly config: Config) {}

  async execute({ snapshotId }: ReadSnapshot): Promise<Buffer | undefined> {
    if (!/^[0-9a-f-]{36}$/.test(snapshotId)) return undefined;
    return readFile(path.join(this.config.dataDir, EVIDENCE_DIR, `${snapshotId}.jpg`)).catch(() => undefined);
  }
}
