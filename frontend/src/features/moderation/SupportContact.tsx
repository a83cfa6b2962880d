import { publicConfig } from '../../shared/config/public-config';

/** The support address the legal pages name (spec 1), as a mail link. */
export function SupportEmail() {
  const { supportEmail } = publicConfig();
  return <a href={`mailto:${supportEmail}`}>{supportEmail}</a>;
}

/** A sentence of the spec with '{email}' in it, the address as a link in its place. */
export function WithSupportEmail({ text }: { text: string }) {
  const [before, after = ''] = text.split('{email}');
  return (
    <>
      {before}
      <SupportEmail />
      {after}
    </>
  );
}
