/** The Nest module other contexts import to get identity's public providers (guards, resolver, directory). */
export { IdentityModule } from '../identity.module.js';
