/**
 * The Report dialog's screenshot as a pure state machine (spec 4 "Screenshot capture": idle, capturing, uploading with
 * a percent, preview with remove). The capture and the upload are run by the dialog; this holds what it shows. Every
 * capture is an attempt with its own number, so the late answer of one that was removed or retaken changes nothing.
 */

/** A screenshot the server has: the captured image (a data URL, shown and kept in the draft) and its upload's id. */
export interface ScreenshotPicture {
  image: string;
  screenshotId: string;
  /** When the upload finished (ms): the server lets its uploader attach it for an hour. */
  uploadedAt: number;
}

export type Screenshot =
  | { status: 'idle' }
  /** `previous`: the picture a retake replaces, back again if the retake fails. */
  | { status: 'capturing'; attempt: number; previous: ScreenshotPicture | null }
  | { status: 'uploading'; attempt: number; previous: ScreenshotPicture | null; image: string; percent: number }
  | { status: 'preview'; picture: ScreenshotPicture };

export type ScreenshotEvent =
  | { type: 'capture-started'; attempt: number }
  | { type: 'captured'; attempt: number; image: string }
  | { type: 'progressed'; attempt: number; percent: number }
  | { type: 'uploaded'; attempt: number; screenshotId: string; at: number }
  | { type: 'failed'; attempt: number }
  | { type: 'removed' };

export const NO_SCREENSHOT: Screenshot = { status: 'idle' };

/** A capture may start when none is under way. */
export function canCapture(state: Screenshot): boolean {
  return state.status === 'idle' || state.status === 'preview';
}

/** Whether the event belongs to the attempt now running. */
function isCurrent(state: Screenshot, attempt: number): boolean {
  return (state.status === 'capturing' || state.status === 'uploading') && state.attempt === attempt;
}

/** The next state; an event the current state does not expect leaves it as it is. */
export function evolveScreenshot(state: Screenshot, event: ScreenshotEvent): Screenshot {
  switch (event.type) {
    case 'capture-started':
      if (!canCapture(state)) return state;
      return {
        status: 'capturing',
        attempt: event.attempt,
        previous: state.status === 'preview' ? state.picture : null,
      };
    case 'captured':
      if (state.status !== 'capturing' || !isCurrent(state, event.attempt)) return state;
      return { status: 'uploading', attempt: event.attempt, previous: state.previous, image: event.image, percent: 0 };
    case 'progressed':
      if (state.status !== 'uploading' || !isCurrent(state, event.attempt)) return state;
      // Never backwards: a retried request starts its count again.
      return { ...state, percent: Math.max(state.percent, Math.min(100, Math.max(0, Math.floor(event.percent)))) };
    case 'uploaded':
      if (state.status !== 'uploading' || !isCurrent(state, event.attempt)) return state;
      return {
        status: 'preview',
        picture: { image: state.image, screenshotId: event.screenshotId, uploadedAt: event.at },
      };
    case 'failed':
      if ((state.status !== 'capturing' && state.status !== 'uploading') || !isCurrent(state, event.attempt)) {
        return state;
      }
      return state.previous ? { status: 'preview', picture: state.previous } : NO_SCREENSHOT;
    case 'removed':
      return NO_SCREENSHOT;
    default: {
      const unknown: never = event;
      throw new Error(`unknown screenshot event ${JSON.stringify(unknown)}`);
    }
  }
}

/** The screenshot the report names: only one the server has. */
export function attachedPicture(state: Screenshot): ScreenshotPicture | null {
  return state.status === 'preview' ? state.picture : null;
}
