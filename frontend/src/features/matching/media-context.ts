import { createContext, useContext, useEffect, useReducer } from 'react';
import { browserMatchingServices } from './matching-services';
import type { MediaSession } from './media-session';

/** The media session the views show; the same one the saga drives (tests provide a fake). */
export const MediaSessionContext = createContext<MediaSession>(browserMatchingServices.media);

/** The streams now, and how many tracks the partner's has (tracks arrive one by one into the same stream). */
export function useMediaStreams() {
  const media = useContext(MediaSessionContext);
  const [, changed] = useReducer((n: number) => n + 1, 0);
  useEffect(() => media.onStreams(changed), [media]);
  const { local, remote } = media.streams();
  return { media, local, remote, remoteTracks: remote?.getTracks().length ?? 0 };
}
