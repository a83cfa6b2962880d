import { Link } from 'react-router';
import { PRIVACY_SECTIONS } from './privacy-sections';
import { StaticPage } from './StaticPage';
import { STATIC_PAGE_PATHS } from './static-pages';

export function PrivacyPolicyPage() {
  return (
    <StaticPage
      area="Legal"
      title="Privacy Policy"
      description="What personal data Serendip collects for random video chat, why, who sees it, how long it is kept, and how to use your rights to access, correct, delete or object."
      path={STATIC_PAGE_PATHS.privacyPolicy}
      intro={
        <>
          <p>
            This policy explains what personal data we collect when you use Serendip, why, who can see it, how long we
            keep it and what you can do about it. We collect only what a safe random video chat needs, and we never sell
            your data or use it for advertising.
          </p>
          <p>
            It applies together with our <Link to={STATIC_PAGE_PATHS.termsOfUse}>Terms of Use</Link> and{' '}
            <Link to={STATIC_PAGE_PATHS.cookies}>Cookie Policy</Link>.
          </p>
        </>
      }
      sections={PRIVACY_SECTIONS}
    />
  );
}
