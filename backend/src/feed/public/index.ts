/**
 * The feed's public surface (DESIGN.md "Conventions"): the only feed code other contexts may import. What a post,
 * comment or reply is and who wrote it (FeedContent), and the module that provides it.
 */
export { FeedContent, type WrittenContent } from './feed-content.js';
export { FeedModule } from '../feed.module.js';
