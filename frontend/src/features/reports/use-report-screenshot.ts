import { useCallback, useEffect, useRef, useState } from 'react';
import { logError } from '../../shared/log';
import { notify } from '../../shared/toasts/notify';
import { captureFrame, toDataUrl } from './capture-frame';
import { REPORT_TEXTS } from './report-texts';
import type { UploadScreenshot } from './screenshot-upload';
import { canCapture, evolveScreenshot, type Screenshot, type ScreenshotEvent } from './screenshot-state';

/** spec 9: "screenshot delay 500 ms" (spec 4: taken automatically 500 ms after the report starts). */
export const AUTO_SCREENSHOT_DELAY_MS = 500;

interface Options {
  initial: Screenshot;
  /** The partner's video while the reported call is on; absent when there is nothing to capture. */
  partnerVideo: (() => HTMLVideoElement | null) | undefined;
  upload: UploadScreenshot;
  /** The automatic capture has read the video (or failed to), or a restored draft needs none. */
  onAutoCaptureDone?: () => void;
}

/**
 * The screenshot's capture and upload (spec 4 "Screenshot capture"): automatic once, 500 ms after the dialog opens
 * (unless a restored draft already has one), and again on request. Each capture is uploaded at once.
 */
export function useReportScreenshot({ initial, partnerVideo, upload, onAutoCaptureDone }: Options) {
  const [screenshot, setScreenshot] = useState(initial);
  // The state the async steps check, always the latest (a render may not have happened between two of them).
  const current = useRef(initial);
  const attempts = useRef(0);
  const running = useRef<AbortController | null>(null);
  const apply = useCallback((event: ScreenshotEvent) => {
    current.current = evolveScreenshot(current.current, event);
    setScreenshot(current.current);
  }, []);

  const take = useCallback(
    async (how: 'auto' | 'manual') => {
      const isAttempt = (attempt: number) => isRunning(current.current, attempt);
      if (!partnerVideo || !canCapture(current.current)) return;
      attempts.current += 1;
      const attempt = attempts.current;
      apply({ type: 'capture-started', attempt });
      let jpeg: Blob;
      let image: string;
      const frame = captureFrame(partnerVideo());
      // The frame is drawn synchronously above: the video may change from here on.
      if (how === 'auto') onAutoCaptureDone?.();
      try {
        jpeg = await frame;
        image = await toDataUrl(jpeg);
      } catch (error) {
        logError('A report screenshot could not be taken', error);
        if (isAttempt(attempt)) notify.error(REPORT_TEXTS.captureFailed);
        apply({ type: 'failed', attempt });
        return;
      }
      // Removed (or the dialog closed) while it was being taken: nothing to upload.
      if (!isAttempt(attempt)) return;
      apply({ type: 'captured', attempt, image });
      notify.success(how === 'auto' ? REPORT_TEXTS.autoCaptured : REPORT_TEXTS.captured);
      const controller = new AbortController();
      running.current = controller;
      try {
        const uploaded = await upload(jpeg, {
          signal: controller.signal,
          onProgress: (percent) => apply({ type: 'progressed', attempt, percent }),
        });
        apply({ type: 'uploaded', attempt, screenshotId: uploaded.screenshotId, at: Date.now() });
      } catch (error) {
        if (controller.signal.aborted) return;
        logError('A report screenshot could not be uploaded', error);
        if (isAttempt(attempt)) notify.error(REPORT_TEXTS.uploadFailed);
        apply({ type: 'failed', attempt });
      } finally {
        if (running.current === controller) running.current = null;
      }
    },
    [apply, partnerVideo, upload, onAutoCaptureDone],
  );

  const remove = useCallback(() => {
    running.current?.abort();
    apply({ type: 'removed' });
  }, [apply]);

  // The automatic one, once per dialog (a remount with a restored screenshot has one already).
  const autoTaken = useRef(initial.status !== 'idle');
  // Until the automatic capture has run, the dialog shows it as under way: a manual one meanwhile would make two.
  const [autoPending, setAutoPending] = useState(() => initial.status === 'idle' && partnerVideo !== undefined);
  useEffect(() => {
    if (!partnerVideo) return;
    if (autoTaken.current) {
      onAutoCaptureDone?.();
      return;
    }
    const timer = setTimeout(() => {
      autoTaken.current = true;
      setAutoPending(false);
      void take('auto');
    }, AUTO_SCREENSHOT_DELAY_MS);
    return () => clearTimeout(timer);
  }, [partnerVideo, take, onAutoCaptureDone]);

  // A closed dialog stops its upload.
  useEffect(() => () => running.current?.abort(), []);

  return { screenshot, autoPending, take: () => void take('manual'), remove };
}

/** That capture is the one under way (not removed, retaken or failed meanwhile). */
function isRunning(state: Screenshot, attempt: number): boolean {
  return (state.status === 'capturing' || state.status === 'uploading') && state.attempt === attempt;
}
