import { describe, expect, it } from 'vitest';
import {
  canUploadTask,
  evolveUploadTask,
  startUploadTask,
  type UploadTask,
  type UploadTaskAction,
  type UploadTaskEvent,
  type UploadTaskStatus,
  uploadPercent,
} from './upload-task';

const task = (status: UploadTaskStatus, bytesSent = 400, bytesTotal = 1000): UploadTask => ({
  status,
  bytesSent,
  bytesTotal,
});

const given = (state: UploadTask) => ({
  when: (...events: UploadTaskEvent[]) => events.reduce(evolveUploadTask, state),
});

const ALL: UploadTaskStatus[] = ['running', 'paused', 'success', 'canceled', 'error'];

describe('upload task (spec 4)', () => {
  it('starts running at 0 %', () => {
    expect(startUploadTask(2048)).toEqual({ status: 'running', bytesSent: 0, bytesTotal: 2048 });
    expect(uploadPercent(startUploadTask(2048))).toBe(0);
  });

  it.each<[UploadTaskAction, UploadTaskStatus[]]>([
    ['pause', ['running']],
    ['resume', ['paused']],
    ['cancel', ['running']],
  ])('allows %s only from %j', (action, allowedFrom) => {
    for (const status of ALL) {
      expect(canUploadTask(task(status), action), `${action} from ${status}`).toBe(allowedFrom.includes(status));
    }
  });

  it('pauses a running task and resumes it', () => {
    expect(given(task('running')).when({ type: 'paused' }).status).toBe('paused');
    expect(given(task('running')).when({ type: 'paused' }, { type: 'resumed' }).status).toBe('running');
  });

  it('ignores a resume while running and a pause or cancel while paused', () => {
    expect(given(task('running')).when({ type: 'resumed' })).toEqual(task('running'));
    expect(given(task('paused')).when({ type: 'paused' })).toEqual(task('paused'));
    expect(given(task('paused')).when({ type: 'canceled' })).toEqual(task('paused'));
  });

  it('cancels a running task for good', () => {
    const canceled = given(task('running')).when({ type: 'canceled' });
    expect(canceled.status).toBe('canceled');
    expect(given(canceled).when({ type: 'resumed' }, { type: 'succeeded' }, { type: 'failed' })).toEqual(canceled);
  });

  it('counts progress in whole percent, also when it arrives just after a pause', () => {
    const sent = given(startUploadTask(1000)).when({ type: 'progressed', bytesSent: 257, bytesTotal: 1000 });
    expect(uploadPercent(sent)).toBe(25);
    const paused = given(sent).when({ type: 'paused' }, { type: 'progressed', bytesSent: 512, bytesTotal: 1000 });
    expect(paused).toEqual({ status: 'paused', bytesSent: 512, bytesTotal: 1000 });
  });

  it('ends in success at 100 % or in error, and stays there', () => {
    const done = given(task('running')).when({ type: 'succeeded' });
    expect(done.status).toBe('success');
    expect(uploadPercent(done)).toBe(100);
    expect(given(done).when({ type: 'failed' }, { type: 'progressed', bytesSent: 1, bytesTotal: 1000 })).toEqual(done);

    const failed = given(task('running')).when({ type: 'failed' });
    expect(failed.status).toBe('error');
    expect(canUploadTask(failed, 'resume')).toBe(false);
    expect(given(failed).when({ type: 'succeeded' })).toEqual(failed);
  });
});
