export interface PendingUploadLimits {
  /** Unfinished uploads one person may have; a new one beyond that drops their oldest. */
  perPerson: number;
  /** Bytes all unfinished uploads together may declare (Upload-Length). */
  maxBytes: number;
  /** An upload this old is expired (tus refuses to resume it and deletes it): it no longer counts. */
  expiresAfterMs: number;
}

export type Admission = { ok: true; dropped: string[] } | { ok: false };

interface Pending {
  owner: string;
  bytes: number;
  startedAt: number;
}

/**
 * The unfinished uploads of this process and the disk space they claimed: an upload declares its whole length up
 * front, and until it finishes or expires that much of the disk is promised to it. Pure bookkeeping; the caller
 * removes the dropped uploads' files.
 */
export class PendingUploads {
  /** In the order they started (a Map keeps insertion order). */
  private readonly uploads = new Map<string, Pending>();

  constructor(private readonly limits: PendingUploadLimits) {}

  /**
   * Takes a new upload in, or refuses it when all unfinished uploads would then declare more than maxBytes. One
   * person's oldest uploads past perPerson are dropped (and their bytes freed) to make room for their new one: a
   * person who tries again after a failed upload expects the new try to work, not to wait for the old one to expire.
   */
  admit(id: string, owner: string, bytes: number, now: number): Admission {
    this.expire(now);
    const own = [...this.uploads].filter(([, upload]) => upload.owner === owner);
    const dropped = own.slice(0, Math.max(0, own.length - (this.limits.perPerson - 1)));
    const freed = dropped.reduce((sum, [, upload]) => sum + upload.bytes, 0);
    if (this.declaredBytes() - freed + bytes > this.limits.maxBytes) return { ok: false };
    for (const [droppedId] of dropped) this.uploads.delete(droppedId);
    this.uploads.set(id, { owner, bytes, startedAt: now });
    return { ok: true, dropped: dropped.map(([droppedId]) => droppedId) };
  }

  /** An upload found on disk at start, still unfinished. */
  restore(id: string, owner: string, bytes: number, startedAt: number): void {
    this.uploads.set(id, { owner, bytes, startedAt });
  }

  /** Finished, ended by its owner, or never created: its bytes are free again. */
  release(id: string): void {
    this.uploads.delete(id);
  }

  declaredBytes(): number {
    let sum = 0;
    for (const upload of this.uploads.values()) sum += upload.bytes;
    return sum;
  }

  private expire(now: number): void {
    for (const [id, upload] of this.uploads) {
      if (now - upload.startedAt >= this.limits.expiresAfterMs) this.uploads.delete(id);
    }
  }
}
