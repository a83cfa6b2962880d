/**
 * One avatar upload as a pure state machine (spec 4 "Upload task"): running, paused, success, canceled, error.
 * Pause only from running, resume only from paused, cancel only from running. The tus object that does the work is
 * kept by the component; this holds only what the screen shows.
 */
export type UploadTaskStatus = 'running' | 'paused' | 'success' | 'canceled' | 'error';

export interface UploadTask {
  status: UploadTaskStatus;
  bytesSent: number;
  bytesTotal: number;
}

/** What the user asks for. */
export type UploadTaskAction = 'pause' | 'resume' | 'cancel';

export type UploadTaskEvent =
  | { type: 'paused' }
  | { type: 'resumed' }
  | { type: 'canceled' }
  | { type: 'progressed'; bytesSent: number; bytesTotal: number }
  | { type: 'succeeded' }
  | { type: 'failed' };

export function startUploadTask(bytesTotal: number): UploadTask {
  return { status: 'running', bytesSent: 0, bytesTotal };
}

/** Whether the user may take `action` now: what enables the Pause, Resume and Cancel buttons. */
export function canUploadTask(task: UploadTask, action: UploadTaskAction): boolean {
  switch (action) {
    case 'pause':
    case 'cancel':
      return task.status === 'running';
    case 'resume':
      return task.status === 'paused';
    default: {
      const unknown: never = action;
      throw new Error(`unknown upload action ${String(unknown)}`);
    }
  }
}

export function isUploadTaskActive(task: UploadTask | null): task is UploadTask {
  return task?.status === 'running' || task?.status === 'paused';
}

/** The next state; an event the current state does not allow leaves the task as it is. */
export function evolveUploadTask(task: UploadTask, event: UploadTaskEvent): UploadTask {
  switch (event.type) {
    case 'paused':
      return canUploadTask(task, 'pause') ? { ...task, status: 'paused' } : task;
    case 'resumed':
      return canUploadTask(task, 'resume') ? { ...task, status: 'running' } : task;
    case 'canceled':
      return canUploadTask(task, 'cancel') ? { ...task, status: 'canceled' } : task;
    case 'progressed':
      // NOTE: a chunk already on the wire may report after a pause; its bytes count, the pause stands.
      return isUploadTaskActive(task)
        ? { ...task, bytesSent: Math.min(event.bytesSent, event.bytesTotal), bytesTotal: event.bytesTotal }
        : task;
    case 'succeeded':
      // The last answer can land after a pause was asked for: the picture is stored either way.
      return isUploadTaskActive(task) ? { ...task, status: 'success', bytesSent: task.bytesTotal } : task;
    case 'failed':
      return isUploadTaskActive(task) ? { ...task, status: 'error' } : task;
    default: {
      const unknown: never = event;
      throw new Error(`unknown upload event ${JSON.stringify(unknown)}`);
    }
  }
}

/** Whole percent sent, 0 to 100. */
export function uploadPercent(task: UploadTask): number {
  if (task.bytesTotal <= 0) return task.status === 'success' ? 100 : 0;
  return Math.min(100, Math.floor((task.bytesSent / task.bytesTotal) * 100));
}
