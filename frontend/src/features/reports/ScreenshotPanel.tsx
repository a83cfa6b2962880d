import { Camera, Trash2 } from 'lucide-react';
import { Button } from '../../ui/Button';
import { Spinner } from '../../ui/Spinner';
import { REPORT_TEXTS } from './report-texts';
import type { Screenshot } from './screenshot-state';

interface ScreenshotPanelProps {
  screenshot: Screenshot;
  partnerName: string;
  /** Absent when the call's video is gone: no capture is offered. */
  onTake: (() => void) | undefined;
  onRemove: () => void;
}

/** spec 2 and 4: the screenshot of the partner's video: capturing, uploading with its percent, preview and remove. */
export function ScreenshotPanel({ screenshot, partnerName, onTake, onRemove }: ScreenshotPanelProps) {
  const alt = `Screenshot of ${partnerName}'s video`;
  return (
    <section className="report-shot" aria-label="Screenshot">
      <h3 className="report-shot__title">Screenshot</h3>
      {screenshot.status === 'idle' &&
        (onTake ? (
          <p className="report-shot__text">A picture of {partnerName}'s video helps us check what happened.</p>
        ) : (
          <p className="report-shot__text">{REPORT_TEXTS.noVideo}</p>
        ))}
      {screenshot.status === 'capturing' && (
        <p className="report-shot__text report-shot__busy">
          <Spinner size="sm" label="Capturing screenshot" /> Capturing screenshot…
        </p>
      )}
      {screenshot.status === 'uploading' && (
        <div className="report-shot__frame report-shot__frame--uploading">
          <img className="report-shot__image" src={screenshot.image} alt={`${alt}, uploading`} />
          <div className="report-shot__progress">
            <span
              role="progressbar"
              aria-label="Screenshot upload"
              aria-valuemin={0}
              aria-valuemax={100}
              aria-valuenow={screenshot.percent}
              className="report-shot__bar"
            >
              <span style={{ width: `${screenshot.percent}%` }} />
            </span>
            <span aria-hidden="true">Uploading {screenshot.percent}%</span>
          </div>
          <Button variant="quiet" size="sm" className="report-shot__remove" onClick={onRemove}>
            <Trash2 aria-hidden="true" /> Remove screenshot
          </Button>
        </div>
      )}
      {screenshot.status === 'preview' && (
        <div className="report-shot__frame">
          <img className="report-shot__image" src={screenshot.picture.image} alt={alt} />
          <Button variant="quiet" size="sm" className="report-shot__remove" onClick={onRemove}>
            <Trash2 aria-hidden="true" /> Remove screenshot
          </Button>
        </div>
      )}
      {onTake && (screenshot.status === 'idle' || screenshot.status === 'preview') && (
        <Button variant="quiet" size="sm" className="report-shot__take" onClick={onTake}>
          <Camera aria-hidden="true" /> {screenshot.status === 'preview' ? 'Retake screenshot' : 'Take screenshot'}
        </Button>
      )}
    </section>
  );
}
