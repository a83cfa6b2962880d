import { useEffect } from 'react';
import { useAppDispatch, useAppSelector } from '../../app/hooks';
import { MatchingView } from '../../features/matching/MatchingView';
import { selectMatching } from '../../features/matching/matching.selectors';
import { matchingActions as a } from '../../features/matching/matching.slice';
import { PreferenceWizard } from '../../features/matching/PreferenceWizard';
import { OnlineCount } from '../../features/presence/OnlineCount';
import '../../features/matching/matching.css';
import { useDocumentTitle } from '../../shared/use-document-title';
import { Spinner } from '../../ui/Spinner';

/**
 * /video-match (spec 2): the preference wizard the first time, the ready screen (saved preferences, Start and Edit)
 * after that, then the matching view.
 */
export function VideoMatchPage() {
  useDocumentTitle('Video Match');
  const dispatch = useAppDispatch();
  const { view } = useAppSelector(selectMatching);
  useEffect(() => {
    dispatch(a.preferencesRequested());
  }, [dispatch]);
  return (
    <div className="video-match">
      {view !== 'call' && <OnlineCount className="online-count--above" />}
      {view === 'loading' ? (
        <Spinner label="Loading your preferences" />
      ) : view === 'call' ? (
        <MatchingView />
      ) : (
        <PreferenceWizard />
      )}
    </div>
  );
}
