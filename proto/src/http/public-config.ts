import { z } from 'zod/mini';

/**
 * What the server tells the web client about this deployment: the support address the legal pages and
 * the banned screen name, the company in the footer, social links (absent ones are hidden) and the external
 * status page. The backend writes it into index.html as a meta tag, so the first paint needs no extra call.
 */
export const publicConfigSchema = z.object({
  supportEmail: z.email(),
  companyName: z.string().check(z.minLength(1)),
  /** spec 1 footer: an image-sharing network, a messaging app, a text-posting network, a chat community server. */
  socialLinks: z.object({
    instagram: z.optional(z.url()),
    telegram: z.optional(z.url()),
    x: z.optional(z.url()),
    discord: z.optional(z.url()),
  }),
  /** spec 2 security center "Support > System Status" (external link); hidden when unset. */
  systemStatusUrl: z.optional(z.url()),
});
export type PublicConfig = z.infer<typeof publicConfigSchema>;
export type SocialNetwork = keyof PublicConfig['socialLinks'];

/** The meta tag's name in index.html. */
export const PUBLIC_CONFIG_META = 'serendip-config';

/** Used by the backend when a variable is unset, and by the client when the page carries no config (vite dev). */
export const DEFAULT_PUBLIC_CONFIG: PublicConfig = {
  supportEmail: 'support@serendip.local',
  companyName: 'Serendip',
  socialLinks: {},
};
