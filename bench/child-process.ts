/**
 * What the socket benchmarks share: a child process driven over IPC (the clients, or a baseline server, kept out of
 * the measured process: on 2 cores its figures must not include their work) and the process's memory after a GC.
 */
import { type ChildProcess, fork } from 'node:child_process';

/** Every child answers `failed` when a command went wrong; a wait for any other answer then rejects. */
export type ChildReport = { type: string } | { type: 'failed'; message: string };

export class IpcChild<Command, Report extends ChildReport> {
  private readonly child: ChildProcess;

  constructor(script: URL, options: { args?: string[]; execArgv?: string[] } = {}) {
    this.child = fork(script, options.args ?? [], {
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
      ...(options.execArgv ? { execArgv: options.execArgv } : {}),
    });
  }

  get pid(): number | undefined {
    return this.child.pid;
  }

  /** The next report of this type from the child. */
  next<T extends Report['type']>(answer: T): Promise<Extract<Report, { type: T }>> {
    return new Promise((resolve, reject) => {
      const listener = (report: Report) => {
        if (report.type === 'failed') reject(new Error(`${answer}: ${(report as { message?: string }).message}`));
        else if (report.type !== answer) return;
        else resolve(report as Extract<Report, { type: T }>);
        this.child.off('message', listener);
      };
      this.child.on('message', listener);
    });
  }

  ask<T extends Report['type']>(command: Command, answer: T): Promise<Extract<Report, { type: T }>> {
    const reply = this.next(answer);
    this.child.send(command as object);
    return reply;
  }

  kill() {
    this.child.kill();
  }
}

/** RSS and heap after a full GC (the process runs with --expose-gc; without it, as they are). */
export function memory(): { rss: number; heapUsed: number } {
  (globalThis as { gc?: () => void }).gc?.();
  const { rss, heapUsed } = process.memoryUsage();
  return { rss, heapUsed };
}
