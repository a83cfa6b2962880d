/** The Nest module other contexts import to get matching's public providers (CallRecords). */
export { MatchingModule } from '../matching.module.js';
