import { Flag as ReportIcon } from 'lucide-react';
import { useCallback, useEffect, useRef, useState } from 'react';
import { useAppDispatch, useAppSelector } from '../../app/hooks';
import { Button } from '../../ui/Button';
import { selectMatching } from '../matching/matching.selectors';
import { matchingActions } from '../matching/matching.slice';
import type { ReportTarget } from './report-draft';
import { ReportDialog } from './ReportDialog';

interface CallReportProps {
  /** Finds the partner's video element on the call screen (the screenshot is a frame of it); the same function always. */
  findPartnerVideo: () => HTMLVideoElement | null;
}

/**
 * The call screen's Report button and its dialog. The dialog is about the call it was opened in, even after that
 * partner left; while it is open the next match waits (spec 4), which the matching saga learns from
 * `reportDialogToggled`. The button shows only in a call; the dialog stays until it is closed.
 */
export function CallReport({ findPartnerVideo }: CallReportProps) {
  const dispatch = useAppDispatch();
  const { status, matchId, partner } = useAppSelector(selectMatching);
  const [target, setTarget] = useState<ReportTarget | null>(null);
  const inCall = (status === 'connecting' || status === 'connected') && matchId !== null && partner !== null;

  const open = () => {
    if (!inCall) return;
    setTarget({ matchId, partnerId: partner._id, partnerName: partner.firstName });
    dispatch(matchingActions.reportDialogToggled(true));
  };
  const close = useCallback(() => {
    setTarget(null);
    dispatch(matchingActions.reportDialogToggled(false));
  }, [dispatch]);

  // Leaving the page with the dialog open must not hold the next match forever.
  const isOpen = useRef(false);
  useEffect(() => {
    isOpen.current = target !== null;
  }, [target]);
  useEffect(
    () => () => {
      if (isOpen.current) dispatch(matchingActions.reportDialogToggled(false));
    },
    [dispatch],
  );

  const frameTaken = useCallback(() => dispatch(matchingActions.reportFrameTaken()), [dispatch]);

  // A frame can be taken while the reported call is still the one on screen.
  const stillOnScreen = target !== null && target.matchId === matchId;

  return (
    <>
      {inCall && (
        // Its label hides on a phone's row of icons (matching.css); it still names the button.
        <Button variant="quiet" className="match-controls__labelled" onClick={open} aria-haspopup="dialog">
          <ReportIcon aria-hidden="true" />
          <span className="match-controls__label">Report</span>
        </Button>
      )}
      {target && (
        <ReportDialog
          target={target}
          partnerVideo={stillOnScreen ? findPartnerVideo : undefined}
          onClose={close}
          onAutoCaptureDone={frameTaken}
        />
      )}
    </>
  );
}
