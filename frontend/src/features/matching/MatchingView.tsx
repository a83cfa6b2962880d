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
} from 'lucide-react';
import { useAppDispatch, useAppSelector } from '../../app/hooks';
import { Badge } from '../../ui/Badge';
import { Button } from '../../ui/Button';
import { Spinner } from '../../ui/Spinner';
import { CallReport } from '../reports/CallReport';
import { ChatPanel } from './ChatPanel';
import { FeedbackCard } from './FeedbackCard';
import { Flag } from './Flag';
import { ConnectionQuality } from './ConnectionQuality';
import { MatchingStatusLine } from './MatchingStatusLine';
import { PartnerVideo, SelfView } from './MatchVideos';
import { MATCHING_TEXTS } from './matching-messages';
import { selectMatching } from './matching.selectors';
import { matchingActions as a } from './matching.slice';

/** The element PartnerVideo draws the partner in: the report's screenshot is a frame of it. */
const findPartnerVideo = () => document.querySelector<HTMLVideoElement>('video.match-partner__video');

/** spec 2 "Matching view": self view, partner, controls and chat; one layout that rearranges below 768 px. */
export function MatchingView() {
  const state = useAppSelector(selectMatching);
  const dispatch = useAppDispatch();
  const { status, permission, partner, media, chatOpen, unread, callNotice } = state;
  const inCall = status === 'connecting' || status === 'connected';
  // The last call's chat stays open after it ends (its partner-left line), until the next match.
  const chatShown = chatOpen && (inCall || state.chat.length > 0);

  return (
    <div className={`match-view${chatShown ? ' match-view--chat' : ''}`} data-match-status={status}>
      <div className="match-stage">
        <div className="match-stage__partner">
          {/* The notice of how the last call ended takes the waiting message's place for its moment. */}
          {inCall ? <PartnerVideo /> : !callNotice && <Waiting />}
          {partner && (
            <div className="match-partner__info">
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
              {state.partnerSpeaking && state.partnerMicOn && <span className="match-partner__speaking">speaking</span>}
              <ConnectionQuality quality={state.partnerQuality} />
            </div>
          )}
          <MatchingStatusLine />
          {/* What happened, over the video: the partner's connection is away, or why the last call ended. */}
          {(callNotice || (inCall && state.partnerReconnecting)) && (
            <p className="match-call-notice" role="status">
              {callNotice ? callNotice.text : MATCHING_TEXTS.reconnecting}
            </p>
          )}
          {/* Over the search for the next one, never over the controls. */}
          <FeedbackCard />
        </div>
        <SelfView />
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
          <Button onClick={() => dispatch(a.findMatchRequested())}>Find Match</Button>
        )}
        {status === 'searching' && (
          <Button variant="quiet" onClick={() => dispatch(a.stopRequested())}>
            <Square aria-hidden="true" /> Stop
          </Button>
        )}
        {inCall && (
          <Button
            variant="quiet"
            aria-pressed={chatOpen}
            onClick={() => dispatch(a.chatToggled())}
            aria-label={unread ? `Chat, ${unread} unread` : 'Chat'}
          >
            <MessageSquare aria-hidden="true" /> Chat{unread > 0 && <Badge tone="accent">{unread}</Badge>}
          </Button>
        )}
        {/* Outside the in-call branch: an open report outlives the call it is about (spec 4). */}
        <CallReport findPartnerVideo={findPartnerVideo} />
        {inCall && (
          <Button onClick={() => dispatch(a.skipRequested())}>
            <SkipForward aria-hidden="true" /> Skip Conversation
          </Button>
        )}
        <Button variant="danger" onClick={() => dispatch(a.leaveRequested())} aria-describedby="leave-hint">
          <LogOut aria-hidden="true" /> Leave Matching
        </Button>
        <span id="leave-hint" className="visually-hidden">
          {MATCHING_TEXTS.leaveHint}
        </span>
      </div>

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
