import { publicConfig } from '../../shared/config/public-config';

/** spec 1: legal pages name a support contact address; it is the deployment's, from the public config. */
export function SupportEmailLink() {
  const { supportEmail } = publicConfig();
  return <a href={`mailto:${supportEmail}`}>{supportEmail}</a>;
}

/** The company that runs this deployment, as the footer's copyright line names it. */
export function CompanyName() {
  return <>{publicConfig().companyName}</>;
}
