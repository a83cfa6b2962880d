/** spec 9: "screenshot ... JPEG quality 0.85". */
export const SCREENSHOT_JPEG_QUALITY = 0.85;

/**
 * The frame the partner's video shows now, as a JPEG the size of the video itself (not of the element on screen).
 * Rejects when there is no frame to take: no element, no picture yet, or a canvas that cannot encode.
 */
export function captureFrame(video: HTMLVideoElement | null): Promise<Blob> {
  if (!video || video.videoWidth === 0 || video.videoHeight === 0) {
    return Promise.reject(new Error('the partner video shows no picture'));
  }
  const canvas = document.createElement('canvas');
  canvas.width = video.videoWidth;
  canvas.height = video.videoHeight;
  const context = canvas.getContext('2d');
  if (!context) return Promise.reject(new Error('no 2d canvas here'));
  context.drawImage(video, 0, 0, canvas.width, canvas.height);
  return new Promise((resolve, reject) => {
    canvas.toBlob(
      (blob) => (blob ? resolve(blob) : reject(new Error('the canvas gave no JPEG'))),
      'image/jpeg',
      SCREENSHOT_JPEG_QUALITY,
    );
  });
}

/** spec 3: the draft keeps the screenshot as base64 (a data URL, which the preview shows as it is). */
export function toDataUrl(blob: Blob): Promise<string> {
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => (typeof reader.result === 'string' ? resolve(reader.result) : reject(reader.error));
    reader.onerror = () => reject(reader.error ?? new Error('the screenshot could not be read'));
    reader.readAsDataURL(blob);
  });
}
