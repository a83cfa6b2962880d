import {
  Camera,
  CameraOff,
  MessageSquare,
  Mic,
  MicOff,
  SkipForward,
  Square,
  LogOut,
  type LucideIcon,
  Maximize,
  Minimize,
} from 'lucide-react';
import { useAppDispatch, useAppSelector } from '../../app/hooks';
import { useShellFrame } from '../../app/shell-frame';
import { Badge } from '../../ui/Badge';
import { Button } from '../../ui/Button';
import { Spinner } from '../../ui/Spinner';
import { CallReport } from '../reports/CallReport';
import { ChatPanel } from './ChatPanel';
import { FeedbackCard } from './FeedbackCard';
import { Flag } from './Flag';
import { ConnectionQuality } from './ConnectionQuality';
import { MatchingStatusLine } from './MatchingStatusLine';
import { SharedInterests } from './ReadyScreen';
import { PartnerVideo, SelfView } from './MatchVideos';
import { MATCHING_TEXTS } from './matching-messages';
import { selectMatching } from './matching.selectors';
import { matchingActions as a } from './matching.slice';
import { useDoubleEscape } from './use-double-escape';
import { useFullscreen } from './use-fullscreen';

/** The element PartnerVideo draws the partner in: the report's screenshot is a frame of it. */
const findPartnerVideo = () => document.querySelector<HTMLVideoElement>('video.match-partner__video');

/**
 * spec 2 "Matching view", separate phone and desktop layouts (matching.css). On a phone the partner fills the screen,
 * the self view is a corner tile, and one row of controls sits over the video with a big Next for the thumb. On a
 * desktop the call takes the window's height, the chat opens beside the videos, and the controls stay where they are.
 * The shell leaves the screen to the call meanwhile (no footer, no phone navigation: shell-frame.ts).
 */
export function MatchingView() {
  const state = useAppSelector(selectMatching);
  const dispatch = useAppDispatch();
  const { status, permission, partner, media, chatOpen, unread, callNotice } = state;
  const inCall = status === 'connecting' || status === 'connected';
  const speaking = state.partnerSpeaking && state.partnerMicOn;
  // The last call's chat stays open after it ends (its partner-left line), until the next match.
  const chatShown = chatOpen && (inCall || state.chat.length > 0);
  const fullscreen = useFullscreen();
  useShellFrame('call');
  // Esc Esc skips, as on Omegle; an Escape that closes the Report dialog is not half of one.
  useDoubleEscape(inCall && !state.reportDialogOpen, () => dispatch(a.skipRequested()));

  return (
    <div className={`match-view${chatShown ? ' match-view--chat' : ''}`} data-match-status={status}>
      <div className="match-stage">
        <div className="match-stage__partner">
          {/* The notice of how the last call ended takes the waiting message's place for its moment. */}
          {inCall ? <PartnerVideo /> : !callNotice && <Waiting />}
          {/* What happened, over the video: the partner's connection is away, or why the last call ended. */}
          {(callNotice || (inCall && state.partnerReconnecting)) && (
            <p className="match-call-notice" role="status">
              {callNotice ? callNotice.text : MATCHING_TEXTS.reconnecting}
            </p>
          )}
          {/* Over the search for the next one, never over the controls. */}
          <FeedbackCard />
        </div>
        <div className="match-stage__top">
          {partner && (
            <div className="match-partner__info">
              {/* A dot that lights while they speak; its room is kept while quiet, so the row never jumps. */}
              <span className={`match-partner__speaking${speaking ? ' is-on' : ''}`} aria-hidden={!speaking}>
                {speaking && <span className="visually-hidden">speaking</span>}
              </span>
              <strong>{partner.firstName}</strong>
              <span>{partner.userAge}</span>
              <span aria-label={partner.gender === 'male' ? 'Male' : 'Female'}>
                {partner.gender === 'male' ? '♂' : '♀'}
              </span>
              {partner.country && <Flag code={partner.country} />}
              {partner.isAdmin && <Badge tone="accent">Administrator</Badge>}
              {!state.partnerMicOn && (
                <MicOff aria-label={`${partner.firstName} is muted`} className="match-partner__muted" />
              )}
              <ConnectionQuality quality={state.partnerQuality} />
              <SharedInterests />
            </div>
          )}
          <MatchingStatusLine />
        </div>
        {/* The self tile's room: below the partner's details, above the phone's controls. */}
        <div className="match-stage__lane">
          <SelfView tile />
        </div>
        {permission === 'waiting' && <div className="match-overlay">{MATCHING_TEXTS.waitingPermission}</div>}
        {permission === 'denied' && (
          <div className="match-overlay match-overlay--denied" role="alert">
            {MATCHING_TEXTS.permissionDenied}
          </div>
        )}
      </div>

      <div className="match-controls" role="toolbar" aria-label="Call controls">
        <MediaToggle device="mic" label="Microphone" on={media.mic} icons={[Mic, MicOff]} />
        <MediaToggle device="camera" label="Camera" on={media.camera} icons={[Camera, CameraOff]} />
        {status === 'idle' && permission === 'granted' && (
          <Button className="match-controls__main" onClick={() => dispatch(a.findMatchRequested())}>
            Find Match
          </Button>
        )}
        {status === 'searching' && (
          <Button className="match-controls__main" variant="quiet" onClick={() => dispatch(a.stopRequested())}>
            <Square aria-hidden="true" /> Stop
          </Button>
        )}
        {inCall && (
          <Button
            variant="quiet"
            className="match-controls__labelled"
            aria-pressed={chatOpen}
            onClick={() => dispatch(a.chatToggled())}
            aria-label={unread ? `Chat, ${unread} unread` : 'Chat'}
          >
            <MessageSquare aria-hidden="true" />
            <span className="match-controls__label">Chat</span>
            {unread > 0 && (
              <Badge tone="accent" className="match-controls__unread">
                {unread}
              </Badge>
            )}
          </Button>
        )}
        {/* Outside the in-call branch: an open report outlives the call it is about (spec 4). */}
        <CallReport findPartnerVideo={findPartnerVideo} />
        {inCall && (
          // A phone shows 'Next' in big; the name keeps 'Skip Conversation' (spec 2) for everyone else.
          <Button className="match-controls__main match-controls__skip" onClick={() => dispatch(a.skipRequested())}>
            <SkipForward aria-hidden="true" />
            <span className="match-controls__next">Next </span>
            <span className="match-controls__skip-name">Skip Conversation</span>
          </Button>
        )}
        <Button
          variant="danger"
          className="match-controls__labelled"
          onClick={() => dispatch(a.leaveRequested())}
          aria-describedby="leave-hint"
        >
          <LogOut aria-hidden="true" />
          <span className="match-controls__label">Leave Matching</span>
        </Button>
        <span id="leave-hint" className="visually-hidden">
          {MATCHING_TEXTS.leaveHint}
        </span>
        {fullscreen.available && (
          <Button
            variant="ghost"
            iconOnly
            className="match-controls__fullscreen"
            aria-label={fullscreen.on ? 'Exit full screen' : 'Full screen'}
            onClick={fullscreen.toggle}
          >
            {fullscreen.on ? <Minimize aria-hidden="true" /> : <Maximize aria-hidden="true" />}
          </Button>
        )}
      </div>
      {/* Keyboards only: a phone has neither key. */}
      <p className="match-keys">
        <kbd>Esc</kbd> <kbd>Esc</kbd> to skip · <kbd>Enter</kbd> to send
      </p>

      {chatShown && <ChatPanel />}
    </div>
  );
}

function Waiting() {
  const { status, permission } = useAppSelector(selectMatching);
  return (
    <div className="match-waiting">
      {status === 'searching' ? (
        <>
          <Spinner />
          <p>Looking for someone to meet…</p>
        </>
      ) : (
        permission === 'granted' && <p>{MATCHING_TEXTS.idle}</p>
      )}
    </div>
  );
}

/** A microphone or camera switch: pressed while on, its icon struck through while off. */
function MediaToggle({
  device,
  label,
  on,
  icons: [OnIcon, OffIcon],
}: {
  device: 'mic' | 'camera';
  label: string;
  on: boolean;
  icons: [LucideIcon, LucideIcon];
}) {
  const dispatch = useAppDispatch();
  return (
    <Button
      variant="quiet"
      iconOnly
      aria-label={label}
      aria-pressed={on}
      onClick={() => dispatch(a.mediaToggled(device))}
    >
      {on ? <OnIcon aria-hidden="true" /> : <OffIcon aria-hidden="true" />}
    </Button>
  );
}
