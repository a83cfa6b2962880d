import { type RefObject, useEffect, useState } from 'react';

/** Filling the box may cut off at most this share of the picture; beyond it the whole picture shows, with bars. */
const MOST_CROPPED = 0.12;

/**
 * How the partner's picture fits its box: 'cover' fills it when little would be cut off (a phone's upright picture
 * on a phone, a wide one on a wide screen), 'contain' shows all of it otherwise (a laptop's 4:3 picture on an upright
 * phone would lose more than half of the person). Follows the picture's size and the box's as they change.
 */
export function useVideoFit(video: RefObject<HTMLVideoElement | null>): 'cover' | 'contain' {
  const [fit, setFit] = useState<'cover' | 'contain'>('cover');
  useEffect(() => {
    const element = video.current;
    if (!element) return;
    const measure = () => {
      const { videoWidth, videoHeight, clientWidth, clientHeight } = element;
      if (!videoWidth || !videoHeight || !clientWidth || !clientHeight) return;
      const picture = videoWidth / videoHeight;
      const box = clientWidth / clientHeight;
      const cropped = 1 - Math.min(picture / box, box / picture);
      setFit(cropped <= MOST_CROPPED ? 'cover' : 'contain');
    };
    measure();
    // 'resize' is the video's own: the partner turned their phone or changed camera.
    element.addEventListener('resize', measure);
    element.addEventListener('loadedmetadata', measure);
    const box = typeof ResizeObserver === 'undefined' ? null : new ResizeObserver(measure);
    box?.observe(element);
    return () => {
      element.removeEventListener('resize', measure);
      element.removeEventListener('loadedmetadata', measure);
      box?.disconnect();
    };
  }, [video]);
  return fit;
}
