import { useAppSelector } from '../../app/hooks';
import { MatchingView } from '../../features/matching/MatchingView';
import { selectMatching } from '../../features/matching/matching.selectors';
import { PreferenceWizard } from '../../features/matching/PreferenceWizard';
import '../../features/matching/matching.css';
import { useDocumentTitle } from '../../shared/use-document-title';

/** /video-match (spec 2): the preference wizard, then the matching view. */
export function VideoMatchPage() {
  useDocumentTitle('Video Match');
  const { view } = useAppSelector(selectMatching);
  return <div className="video-match">{view === 'wizard' ? <PreferenceWizard /> : <MatchingView />}</div>;
}
