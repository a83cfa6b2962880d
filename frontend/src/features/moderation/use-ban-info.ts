import type { BanRecordView } from '@serendip/proto';
import { useCallback, useEffect, useState } from 'react';
import { logError } from '../../shared/log';
import type { ModerationApi } from './moderation-api';

export type BanInfoLoad =
  | { state: 'loading' }
  | { state: 'failed' }
  | { state: 'loaded'; ban: BanRecordView }
  /** The server has no ban on now: the session is checked again (the guard then lets the user back in). */
  | { state: 'no-ban' };

/** The ban the banned screen shows (spec 7 GET /user/ban-info/{userId}); a failure is logged (spec 8). */
export function useBanInfo(api: ModerationApi, userId: string, revision?: unknown) {
  // Kept with the user it is about, so another user's answer never shows (it reads as loading instead).
  const [answer, setAnswer] = useState<{ userId: string; load: BanInfoLoad } | null>(null);

  useEffect(() => {
    let live = true;
    api.banInfo(userId).then(
      (info) => {
        const load: BanInfoLoad = info.isBanned && info.ban ? { state: 'loaded', ban: info.ban } : { state: 'no-ban' };
        if (live) setAnswer({ userId, load });
      },
      (error: unknown) => {
        logError('Ban info failed', error);
        if (live) setAnswer({ userId, load: { state: 'failed' } });
      },
    );
    return () => {
      live = false;
    };
    // `revision` (the user object): a push about this ban gives a new one, and the ban is read again.
  }, [api, userId, revision]);

  /** spec 4 "Appeal": none to pending after a successful submit, on the screen only. */
  const appealed = useCallback((appealExplanation: string) => {
    setAnswer((current) =>
      current?.load.state === 'loaded'
        ? {
            ...current,
            load: { state: 'loaded', ban: { ...current.load.ban, appealStatus: 'pending', appealExplanation } },
          }
        : current,
    );
  }, []);

  const load: BanInfoLoad = answer?.userId === userId ? answer.load : { state: 'loading' };
  return { load, appealed };
}
