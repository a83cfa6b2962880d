import { createSlice, type PayloadAction } from '@reduxjs/toolkit';
import type { OnlineUser } from '@serendip/proto';
import type { HealthCheckResult } from './health-client';
import type { SystemPush } from './system-socket';

export type HealthStatus = 'checking' | 'up' | 'down';
export type SocketStatus = 'idle' | 'connecting' | 'connected' | 'disconnected';

export interface SystemState {
  health: {
    status: HealthStatus;
    /** The server's message when up, why it is considered down otherwise. */
    detail: string | null;
    checkedAt: number | null;
  };
  socket: {
    status: SocketStatus;
    /** Round trip of the last answered ping; null until one is answered or after a failed one. */
    latencyMs: number | null;
  };
  /**
   * Who is online (spec 4 "Presence"), as the server last pushed it: `count` to every signed-in page (home and the
   * match screen), `users` to admins only (the overview's "Online now"). Null until pushed, and again once the socket
   * drops (a number from before would be passed off as live).
   */
  online: { count: number | null; users: OnlineUser[] | null; usersTotal: number };
}

const initialState: SystemState = {
  health: { status: 'checking', detail: null, checkedAt: null },
  socket: { status: 'idle', latencyMs: null },
  online: { count: null, users: null, usersTotal: 0 },
};

const systemSlice = createSlice({
  name: 'system',
  initialState,
  reducers: {
    healthCheckRequested() {},
    /** The server pushed something (once per event id); the feature it concerns takes it from here. */
    pushReceived(state, action: PayloadAction<SystemPush>) {
      const push = action.payload;
      if (push.event === 'onlineCount') state.online.count = push.payload.count;
      else if (push.event === 'onlineUsers') {
        state.online.users = push.payload.users;
        state.online.usersTotal = push.payload.total;
      }
    },
    healthChecked(state, action: PayloadAction<HealthCheckResult & { checkedAt: number }>) {
      state.health = {
        status: action.payload.status,
        detail: action.payload.detail,
        checkedAt: action.payload.checkedAt,
      };
    },
    socketConnecting(state) {
      state.socket = { status: 'connecting', latencyMs: null };
    },
    socketConnected(state) {
      state.socket.status = 'connected';
    },
    socketDisconnected(state) {
      state.socket = { status: 'disconnected', latencyMs: null };
      state.online = { count: null, users: null, usersTotal: 0 };
    },
    pingAnswered(state, action: PayloadAction<{ latencyMs: number }>) {
      state.socket.latencyMs = action.payload.latencyMs;
    },
    pingFailed(state) {
      state.socket.latencyMs = null;
    },
  },
});

export const {
  healthCheckRequested,
  pushReceived,
  healthChecked,
  socketConnecting,
  socketConnected,
  socketDisconnected,
  pingAnswered,
  pingFailed,
} = systemSlice.actions;
export const systemReducer = systemSlice.reducer;
