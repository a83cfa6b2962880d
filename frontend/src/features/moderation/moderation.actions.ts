import { createAction } from '@reduxjs/toolkit';

/**
 * The banned screen thinks the ban is over: its countdown reached the expiry, or the server had no ban on record. The
 * session asks user info again (after `delayMs`) so the guard lets the user back in once the server agrees.
 */
export const banMayHaveEnded = createAction<{ delayMs: number }>('moderation/banMayHaveEnded');
