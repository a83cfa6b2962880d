import { describe, expect, it } from 'vitest';
import {
  attachedPicture,
  canCapture,
  evolveScreenshot,
  NO_SCREENSHOT,
  type Screenshot,
  type ScreenshotEvent,
} from './screenshot-state';

const given = (state: Screenshot) => ({
  when: (...events: ScreenshotEvent[]) => events.reduce(evolveScreenshot, state),
});
const picture = { image: 'data:image/jpeg;base64,AAAA', screenshotId: 'shot-1', uploadedAt: 1_000 };
const preview: Screenshot = { status: 'preview', picture };

describe('the report screenshot (spec 4: idle, capturing, uploading with a percent, preview with remove)', () => {
  it('goes from idle through capturing and uploading to a preview the report can name', () => {
    const states = [
      { type: 'capture-started', attempt: 1 },
      { type: 'captured', attempt: 1, image: 'data:image/jpeg;base64,BBBB' },
      { type: 'progressed', attempt: 1, percent: 42.7 },
      { type: 'uploaded', attempt: 1, screenshotId: 'shot-2', at: 5_000 },
    ].reduce<Screenshot[]>(
      (all, event) => [...all, evolveScreenshot(all.at(-1)!, event as ScreenshotEvent)],
      [NO_SCREENSHOT],
    );
    expect(states.map((s) => s.status)).toEqual(['idle', 'capturing', 'uploading', 'uploading', 'preview']);
    expect(states[3]).toMatchObject({ percent: 42 });
    expect(attachedPicture(states[4]!)).toEqual({
      image: 'data:image/jpeg;base64,BBBB',
      screenshotId: 'shot-2',
      uploadedAt: 5_000,
    });
    expect(attachedPicture(states[3]!)).toBeNull();
  });

  it('never shows the percent going back, nor past 100', () => {
    const uploading = given(NO_SCREENSHOT).when(
      { type: 'capture-started', attempt: 1 },
      { type: 'captured', attempt: 1, image: 'x' },
      { type: 'progressed', attempt: 1, percent: 60 },
      { type: 'progressed', attempt: 1, percent: 10 },
    );
    expect(uploading).toMatchObject({ percent: 60 });
    expect(given(uploading).when({ type: 'progressed', attempt: 1, percent: 250 })).toMatchObject({ percent: 100 });
  });

  it('keeps the last good picture when a retake fails, and has none when the first one fails', () => {
    expect(given(preview).when({ type: 'capture-started', attempt: 2 }, { type: 'failed', attempt: 2 })).toEqual(
      preview,
    );
    expect(
      given(preview).when(
        { type: 'capture-started', attempt: 2 },
        { type: 'captured', attempt: 2, image: 'y' },
        { type: 'failed', attempt: 2 },
      ),
    ).toEqual(preview);
    expect(given(NO_SCREENSHOT).when({ type: 'capture-started', attempt: 1 }, { type: 'failed', attempt: 1 })).toEqual(
      NO_SCREENSHOT,
    );
  });

  it('ignores what comes late from a capture that was removed or replaced', () => {
    const removed = given(NO_SCREENSHOT).when(
      { type: 'capture-started', attempt: 1 },
      { type: 'captured', attempt: 1, image: 'x' },
      { type: 'removed' },
      { type: 'progressed', attempt: 1, percent: 80 },
      { type: 'uploaded', attempt: 1, screenshotId: 'late', at: 9 },
    );
    expect(removed).toEqual(NO_SCREENSHOT);
    const retaken = given(NO_SCREENSHOT).when(
      { type: 'capture-started', attempt: 1 },
      { type: 'removed' },
      { type: 'capture-started', attempt: 2 },
      { type: 'captured', attempt: 1, image: 'old' },
    );
    expect(retaken).toEqual({ status: 'capturing', attempt: 2, previous: null });
  });

  it('takes no second capture while one is under way; remove works from any state', () => {
    const capturing = given(NO_SCREENSHOT).when({ type: 'capture-started', attempt: 1 });
    expect(canCapture(capturing)).toBe(false);
    expect(given(capturing).when({ type: 'capture-started', attempt: 2 })).toEqual(capturing);
    expect(canCapture(preview)).toBe(true);
    expect(canCapture(NO_SCREENSHOT)).toBe(true);
    expect(given(preview).when({ type: 'removed' })).toEqual(NO_SCREENSHOT);
  });
});
