import { userSubject } from '../../platform/messaging/subjects.js';

/** Video deliveries to one user's sockets, wherever they are: `user.<id>.video` (DESIGN.md "Fan-out: NATS"). */
export const videoSubject = (userId: string) => `${userSubject(userId)}.video`;
