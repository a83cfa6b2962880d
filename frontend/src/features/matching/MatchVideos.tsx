import { MATCH_TIMING } from '@serendip/proto';
import { useEffect, useRef, useState } from 'react';
import { useAppDispatch, useAppSelector } from '../../app/hooks';
import { Avatar } from '../../ui/Avatar';
import { selectCurrentUser } from '../auth/session.selectors';
import { CONNECTION_MESSAGES } from './matching-messages';
import { selectMatching } from './matching.selectors';
import { matchingActions as a } from './matching.slice';
import { useMediaStreams } from './media-context';
import { useCornerDrag } from './use-corner-drag';
import { useVideoFit } from './use-video-fit';

/**
 * The user's own camera, mirrored and muted; their avatar when the camera is off (spec 2). In the call (`tile`) it is a
 * tile in a corner that can be dragged to another corner, out of the way of the partner's face.
 */
export function SelfView({ tile = false }: { tile?: boolean }) {
  const { local, media } = useMediaStreams();
  const user = useAppSelector(selectCurrentUser);
  const { media: toggles } = useAppSelector(selectMatching);
  const video = useRef<HTMLVideoElement>(null);
  const { ref: tileRef, corner, handlers: drag } = useCornerDrag();
  useEffect(() => {
    if (video.current && video.current.srcObject !== local) video.current.srcObject = local;
  }, [local]);
  return (
    <div
      ref={tileRef}
      className={tile ? `match-self match-self--tile match-self--${corner}` : 'match-self'}
      data-testid={tile ? 'self-tile' : undefined}
      {...(tile ? drag : {})}
    >
      <video
        ref={video}
        data-testid="self-video"
        className="match-self__video"
        autoPlay
        playsInline
        muted
        hidden={!toggles.camera || !local}
      />
      {(!toggles.camera || !local) && (
        <div className="match-self__avatar">
          <Avatar name={user?.firstName ?? 'You'} src={user?.avatar ?? undefined} size="lg" />
        </div>
      )}
      <MicMeter level={() => media.micLevel()} on={toggles.mic} />
    </div>
  );
}

/** The microphone level meter: five bars that follow the voice (read each frame, never stored). */
function MicMeter({ level, on }: { level: () => number; on: boolean }) {
  const bars = useRef<HTMLSpanElement>(null);
  useEffect(() => {
    const light = (lit: number) =>
      bars.current?.querySelectorAll('i').forEach((bar, i) => bar.classList.toggle('is-lit', i < lit));
    // A muted microphone shows no level, not the last one it had.
    if (!on) return light(0);
    let frame = 0;
    const draw = () => {
      light(Math.min(5, Math.round(level() / 20)));
      frame = requestAnimationFrame(draw);
    };
    frame = requestAnimationFrame(draw);
    return () => cancelAnimationFrame(frame);
  }, [level, on]);
  return (
    <span ref={bars} className="match-meter" role="img" aria-label={on ? 'Microphone level' : 'Microphone off'}>
      {[0, 1, 2, 3, 4].map((i) => (
        <i key={i} />
      ))}
    </span>
  );
}

/**
 * The partner's video. spec 4: a remote video that cannot play is retried up to 5 times (every 1 s), then a
 * 3-2-1 countdown, then a skip.
 */
export function PartnerVideo() {
  const { remote, remoteTracks } = useMediaStreams();
  const { matchId, partnerCameraOn, partner } = useAppSelector(selectMatching);
  const dispatch = useAppDispatch();
  const video = useRef<HTMLVideoElement>(null);
  const fit = useVideoFit(video);
  // Keyed by the call, so a new call never shows the last one's notice.
  const [notice, setNotice] = useState<{ matchId: string; text: string } | null>(null);

  useEffect(() => {
    if (!remote || !matchId || remoteTracks === 0) return;
    let cancelled = false;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const attempt = (n: number) => {
      const element = video.current;
      if (cancelled) return;
      if (!element) {
        timer = setTimeout(() => attempt(n), MATCH_TIMING.remoteVideoMissingElementRetryMs);
        return;
      }
      if (element.srcObject !== remote) element.srcObject = remote;
      element.play().then(
        () => !cancelled && setNotice(null),
        () => {
          if (cancelled) return;
          if (n + 1 < MATCH_TIMING.remoteVideoAttempts) {
            setNotice({ matchId, text: CONNECTION_MESSAGES.videoRetrying });
            timer = setTimeout(() => attempt(n + 1), MATCH_TIMING.remoteVideoRetryMs);
          } else countdown(3);
        },
      );
    };
    const countdown = (seconds: number) => {
      if (cancelled) return;
      if (seconds === 0) {
        dispatch(a.partnerVideoFailed());
        return;
      }
      setNotice({ matchId, text: CONNECTION_MESSAGES.noPartnerCamera(seconds) });
      timer = setTimeout(() => countdown(seconds - 1), 1_000);
    };
    // Tracks arrive a moment after the stream: try once they are there.
    timer = setTimeout(() => attempt(0), 0);
    return () => {
      cancelled = true;
      clearTimeout(timer);
    };
  }, [remote, remoteTracks, matchId, dispatch]);

  return (
    <div className="match-partner">
      <video
        ref={video}
        data-testid="partner-video"
        className={`match-partner__video match-partner__video--${fit}`}
        autoPlay
        playsInline
      />
      {partner && !partnerCameraOn && (
        <div className="match-partner__avatar">
          <Avatar name={partner.firstName} src={partner.avatar ?? undefined} size="xl" />
          <p>{partner.firstName} turned the camera off</p>
        </div>
      )}
      {notice?.matchId === matchId && (
        <p className="match-partner__notice" role="status">
          {notice.text}
        </p>
      )}
    </div>
  );
}
