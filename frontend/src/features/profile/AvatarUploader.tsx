import type { UserInfo } from '@serendip/proto';
import { ImageUp, Pause, Play, X } from 'lucide-react';
import { type ChangeEvent, useEffect, useId, useRef, useState } from 'react';
import { useAppDispatch, useAppSelector } from '../../app/hooks';
import { logError } from '../../shared/log';
import { notify } from '../../shared/toasts/notify';
import { Avatar } from '../../ui/Avatar';
import { Button } from '../../ui/Button';
import { selectCurrentUser } from '../auth/session.selectors';
import { userUpdated } from '../auth/session.slice';
import { isUserInfo } from '../auth/user-info';
import {
  AVATAR_FILE_TYPES,
  AVATAR_MAX_BYTES,
  type AvatarUpload,
  type StartAvatarUpload,
  startTusAvatarUpload,
} from './avatar-upload';
import { profileName } from './profile-display';
import { PROFILE_MESSAGES } from './profile-messages';
import {
  canUploadTask,
  evolveUploadTask,
  isUploadTaskActive,
  startUploadTask,
  type UploadTask,
  type UploadTaskEvent,
  uploadPercent,
} from './upload-task';
import './profile.css';

export interface AvatarUploaderProps {
  /** How a picture is sent; tus by default (tests pass a fake). */
  startUpload?: StartAvatarUpload;
}

const MEGABYTE = 1024 * 1024;
const MAX_MEGABYTES = AVATAR_MAX_BYTES / MEGABYTE;

function userFromBody(body: string): UserInfo | null {
  try {
    const answer: unknown = JSON.parse(body);
    return isUserInfo(answer) ? answer : null;
  } catch {
    return null;
  }
}

const STATUS_TEXT: Partial<Record<UploadTask['status'], string>> = {
  paused: 'Upload paused.',
  canceled: 'Upload canceled.',
};

/**
 * The user's picture and its upload (spec 2, 4 "Avatar upload", "Upload task"): a resumable upload with progress,
 * Pause, Resume and Cancel. The upload object stays in a ref (STYLE 7: no media objects in Redux).
 */
export function AvatarUploader({ startUpload = startTusAvatarUpload }: AvatarUploaderProps) {
  const user = useAppSelector(selectCurrentUser);
  const dispatch = useAppDispatch();
  const [task, setTask] = useState<UploadTask | null>(null);
  const [tooLarge, setTooLarge] = useState<string | null>(null);
  const uploadRef = useRef<AvatarUpload | null>(null);
  const inputRef = useRef<HTMLInputElement>(null);
  const ids = useId();

  // Leaving the screen pauses rather than cancels: picking the same file again resumes where it stopped.
  useEffect(() => () => uploadRef.current?.pause(), []);

  if (!user) return null;
  const active = isUploadTaskActive(task);
  const apply = (event: UploadTaskEvent) => setTask((current) => current && evolveUploadTask(current, event));

  const finish = (event: UploadTaskEvent) => {
    uploadRef.current = null;
    apply(event);
  };

  const choose = (event: ChangeEvent<HTMLInputElement>) => {
    const file = event.target.files?.[0];
    // Cleared so that picking the same file again is a change too.
    event.target.value = '';
    if (!file || active) return;
    if (file.size > AVATAR_MAX_BYTES) {
      setTooLarge(`This picture is ${(file.size / MEGABYTE).toFixed(1)} MB. Pictures up to ${MAX_MEGABYTES} MB.`);
      notify.error(PROFILE_MESSAGES.avatarUploadFailed);
      return;
    }
    setTooLarge(null);
    setTask(startUploadTask(file.size));
    uploadRef.current = startUpload(file, {
      progressed: (bytesSent, bytesTotal) => apply({ type: 'progressed', bytesSent, bytesTotal }),
      succeeded: (body) => {
        finish({ type: 'succeeded' });
        const updated = userFromBody(body);
        if (updated) {
          dispatch(userUpdated(updated));
          notify.success(PROFILE_MESSAGES.avatarUpdated);
        } else {
          logError('Avatar upload: the finishing answer is not a user', body);
          notify.error(PROFILE_MESSAGES.avatarServerFailed);
        }
      },
      failed: (error) => {
        finish({ type: 'failed' });
        logError('Avatar upload failed', error);
        notify.error(PROFILE_MESSAGES.avatarUploadFailed);
      },
    });
  };

  const steer = (action: 'pause' | 'resume' | 'cancel') => {
    if (!task || !canUploadTask(task, action)) return;
    const upload = uploadRef.current;
    switch (action) {
      case 'pause':
        upload?.pause();
        apply({ type: 'paused' });
        break;
      case 'resume':
        upload?.resume();
        apply({ type: 'resumed' });
        break;
      case 'cancel':
        upload?.cancel();
        finish({ type: 'canceled' });
        break;
      default: {
        const unknown: never = action;
        throw new Error(`unknown upload action ${String(unknown)}`);
      }
    }
  };

  const percent = task ? uploadPercent(task) : 0;
  const hintId = `${ids}-hint`;
  const problemId = `${ids}-problem`;
  const statusText = task ? STATUS_TEXT[task.status] : undefined;

  return (
    <div className="avatar-uploader">
      <Avatar name={profileName(user)} src={user.avatar} size="xl" className="avatar-uploader__avatar" />
      <div className="avatar-uploader__body">
        <input
          ref={inputRef}
          type="file"
          accept={AVATAR_FILE_TYPES}
          className="visually-hidden"
          tabIndex={-1}
          aria-hidden="true"
          aria-label="Profile picture file"
          onChange={choose}
        />
        <Button
          variant="quiet"
          size="sm"
          busy={task?.status === 'running'}
          disabled={active}
          aria-describedby={tooLarge ? `${hintId} ${problemId}` : hintId}
          onClick={() => inputRef.current?.click()}
        >
          {!active && <ImageUp aria-hidden="true" />}
          {active ? 'Uploading picture' : 'Upload picture'}
        </Button>
        <p id={hintId} className="avatar-uploader__hint">
          JPEG, PNG or WebP, at most {MAX_MEGABYTES} MB.
        </p>
        {tooLarge && (
          <p id={problemId} className="avatar-uploader__problem">
            {tooLarge}
          </p>
        )}
        {active && (
          <div className="avatar-uploader__progress">
            <div
              className="avatar-uploader__bar"
              role="progressbar"
              aria-label="Picture upload"
              aria-valuemin={0}
              aria-valuemax={100}
              aria-valuenow={percent}
              aria-valuetext={`${percent}%`}
            >
              <span className="avatar-uploader__fill" style={{ width: `${percent}%` }} />
            </div>
            <span className="avatar-uploader__percent" aria-hidden="true">
              {percent}%
            </span>
          </div>
        )}
        {active && (
          <div className="avatar-uploader__controls">
            <Button variant="ghost" size="sm" disabled={!canUploadTask(task, 'pause')} onClick={() => steer('pause')}>
              <Pause aria-hidden="true" />
              Pause
            </Button>
            <Button variant="ghost" size="sm" disabled={!canUploadTask(task, 'resume')} onClick={() => steer('resume')}>
              <Play aria-hidden="true" />
              Resume
            </Button>
            <Button variant="ghost" size="sm" disabled={!canUploadTask(task, 'cancel')} onClick={() => steer('cancel')}>
              <X aria-hidden="true" />
              Cancel
            </Button>
          </div>
        )}
        <p className="visually-hidden" role="status">
          {statusText}
        </p>
      </div>
    </div>
  );
}
