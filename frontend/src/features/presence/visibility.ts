/** What followVisibility needs of a Socket.IO client socket. */
export interface VisibilitySocket {
  readonly connected: boolean;
  emit(event: 'away' | 'back'): unknown;
  on(event: 'connect', listener: () => void): unknown;
  off(event: 'connect', listener: () => void): unknown;
}

/** What it needs of the page's document. */
export type VisibilityDocument = Pick<Document, 'hidden' | 'addEventListener' | 'removeEventListener'>;

/**
 * spec 4 "Presence": when the page becomes hidden the client emits 'away'; when visible again 'back'. A connection
 * (the first, or after a drop) starts as in sight on the server, so a page hidden at that moment says 'away' at once.
 * Returns the function that stops following.
 */
export function followVisibility(socket: VisibilitySocket, doc: VisibilityDocument = document): () => void {
  const onChange = () => {
    if (socket.connected) socket.emit(doc.hidden ? 'away' : 'back');
  };
  const onConnect = () => {
    if (doc.hidden) socket.emit('away');
  };
  doc.addEventListener('visibilitychange', onChange);
  socket.on('connect', onConnect);
  return () => {
    doc.removeEventListener('visibilitychange', onChange);
    socket.off('connect', onConnect);
  };
}
