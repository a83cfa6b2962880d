import { randomUUID } from 'node:crypto';
import { Inject, Logger, type OnApplicationBootstrap, type OnApplicationShutdown } from '@nestjs/common';
import {
  type OnGatewayConnection,
  type OnGatewayDisconnect,
  type OnGatewayInit,
  WebSocketGateway,
} from '@nestjs/websockets';
import {
  checkContract,
  leaveVideoRoomSchema,
  mediaConnectSchema,
  mediaConsumeSchema,
  mediaFallbackSchema,
  mediaProduceSchema,
  mediaResumeSchema,
  type MediaJoinAnswer,
  rtcConnectedSchema,
  startMatchingSchema,
  VIDEO_NAMESPACE,
  type VideoClientToServerEvents,
  type VideoErrorCode,
  type VideoHandshakeRefusal,
  type VideoServerToClientEvents,
  userBannedDataSchema,
  banEndedDataSchema,
  videoHandshakeAuthSchema,
} from '@serendip/proto';
import { RateLimiterMemory, RateLimiterRes } from 'rate-limiter-flexible';
import type { Namespace, Socket } from 'socket.io';
import { SESSION_EXPIRED, SessionResolver, UserDirectory } from '../../identity/public/index.js';
import { EVENT_CORE, type EventCore } from '../../platform/event-core/event-core.js';
import type { BusSubscription } from '../../platform/messaging/message-bus.js';
import { eventSubject } from '../../platform/messaging/subjects.js';
import { Realtime } from '../../platform/realtime/realtime.js';
import { SocketQuota, TOO_MANY_PAGES } from '../../platform/realtime/socket-quota.js';
import {
  type CoordinatorRequest,
  GATEWAY_ALIVE_SUBJECT,
  GATEWAY_HEARTBEAT_MS,
  MATCHING_REQUESTS_SUBJECT,
  MATCHMAKER_LEADS_SUBJECT,
  parseUserDelivery,
  type UserDelivery,
} from '../coordinator/coordinator.messages.js';
import { SfuClient, SfuError } from '../media/sfu-client.js';
import { SfuLoads } from '../media/sfu-loads.js';
import { ACCOUNT_RESTRICTED, admit, admitSocket } from './admission.js';
import {
  connect,
  consume,
  type MediaRequest,
  PEER_SIGNALLING,
  type RelayedCall,
  relayedCall,
  resume,
  type ZodLikeError,
} from './relayed-call.js';
import { problemOf, RELAYS, type RelayName } from './relays.js';
import type { VideoSocketState } from './video-socket-state.js';
import { videoSubject } from './video-subject.js';

type VideoSocket = Socket<
  VideoClientToServerEvents,
  VideoServerToClientEvents,
  Record<string, never>,
  VideoSocketState
>;

type Ack = ((answer: unknown) => void) | undefined;

/**
 * The video socket (spec 7): signed-in users only, checked at the handshake. Matching requests go to the
 * matchmaker over the bus; what the matchmaker decides comes back on `user.<id>.video`, so a user's socket may be on
 * any backend node. Relays (offer, answer, ICE, chat, toggles) go to the sender's current partner only.
 */
@WebSocketGateway({ namespace: VIDEO_NAMESPACE })
export class VideoGateway
  implements OnGatewayInit, OnGatewayConnection, OnGatewayDisconnect, OnApplicationBootstrap, OnApplicationShutdown
{
  private readonly logger = new Logger(VideoGateway.name);
  private namespace!: Namespace<
    VideoClientToServerEvents,
    VideoServerToClientEvents,
    Record<string, never>,
    VideoSocketState
  >;
  /** This node's sockets per user, and the bus subscription that reaches them while there is one. */
  private readonly local = new Map<string, { sockets: Set<VideoSocket>; subscription: BusSubscription }>();
  /** Users banned in the last RECENT_BAN_MS, as this node heard it (see bannedJustNow). */
  private readonly recentBans = new Map<string, number>();
  /** Per socket: its set-up (attached, and its resume asked for), which its loss waits for. */
  private readonly readiness = new WeakMap<VideoSocket, Promise<void>>();
  /** How to stop live pushes (a session's end) to each socket. */
  private readonly unregister = new WeakMap<VideoSocket, Promise<() => Promise<void>>>();
  private bans: BusSubscription | undefined;
  private banEnds: BusSubscription | undefined;
  private leaders: BusSubscription | undefined;
  /** This node, as the matchmaker knows it: its heartbeat says it is alive, and each request says where it comes from. */
  private readonly node = randomUUID();
  private heartbeat: ReturnType<typeof setInterval> | undefined;
  // Per user, over every event and all their sockets: plenty for ICE bursts, too little to flood a partner or the
  // one matchmaker. Chat is slower still.
  private readonly eventLimit = new RateLimiterMemory({ points: 200, duration: 10 });
  /** Each page of the video chat holds one video socket: 8 at once is plenty, more is a script. */
  private readonly quota = new SocketQuota(8);
  private readonly chatLimit = new RateLimiterMemory({ points: 10, duration: 10 });
  // A client sends `typing` at most every CHAT_TIMING.typingEveryMs; this leaves room for a reconnect's jitter.
  private readonly typingLimit = new RateLimiterMemory({ points: 3, duration: 4 });

  constructor(
    @Inject(EVENT_CORE) private readonly core: EventCore,
    private readonly sessions: SessionResolver,
    private readonly users: UserDirectory,
    private readonly realtime: Realtime,
    private readonly sfu: SfuClient,
    private readonly loads: SfuLoads,
  ) {}

  afterInit(namespace: VideoGateway['namespace']) {
    this.namespace = namespace;
    // Refused before the connection exists: the client gets connect_error with { code, reason } as `data`.
    namespace.use((socket, next) => {
      this.authenticate(socket as VideoSocket).then(
        (refusal) => {
          if (!refusal) return next();
          const error = new Error(refusal.reason) as Error & { data: unknown };
          error.data = refusal;
          next(error);
        },
        (error: unknown) => {
          this.logger.error(`video handshake failed: ${(error as Error).message}`);
          next(new Error('Please try again'));
        },
      );
    });
  }

  async handleConnection(socket: VideoSocket) {
    const { userId } = socket.data;
    // NOTE: handlers go on at once (an event sent right after connecting must not be lost), and each waits until
    // this user's deliveries reach the node (an answer must never come back before anyone listens for it) and the
    // socket's resume, if it asked for one, is on its way: a Stop pressed as the page comes back must reach the
    // matchmaker after the resume, or the resume would bring back the call the user just left.
    const ready = this.attach(socket).then(() => this.resumeIfAsked(socket));
    this.readiness.set(
      socket,
      ready.catch(() => undefined),
    );
    // What arrives is untrusted whatever the contract says: every handler takes `unknown` and checks it.
    const on = socket.on.bind(socket) as (event: string, handler: (body: unknown, ack: unknown) => void) => void;
    const handle = (event: string, handler: (body: unknown, ack: Ack) => Promise<void>) =>
      on(event, (body, rawAck) => {
        const ack = typeof rawAck === 'function' ? (rawAck as NonNullable<Ack>) : undefined;
        void (async () => {
          try {
            await ready;
            if (socket.data.restricted || this.bannedJustNow(userId)) {
              return this.refuse(socket, ack, 'banned', ACCOUNT_RESTRICTED);
            }
            if (!(await this.withinLimit(this.eventLimit, userId)))
              return this.refuse(socket, ack, 'rate-limited', SLOW_DOWN);
            await handler(body, ack);
          } catch (error) {
            // A failing store or bus ends this request, never the process; the client hears it.
            this.logger.error(`video event ${event} failed: ${(error as Error).message}`);
            this.refuse(socket, ack, 'unavailable', UNAVAILABLE);
          }
        })();
      });
    for (const [name, relay] of Object.entries(RELAYS) as [RelayName, (typeof RELAYS)[RelayName]][]) {
      handle(name, (body, ack) => this.relay(socket, name, relay, body, ack));
    }
    handle('startMatching', (body, ack) => this.startMatching(socket, body, ack));
    handle('leaveVideoRoom', (body, ack) => this.leave(socket, body, ack));
    handle('rtc-connected', (body, ack) => this.rtcConnected(socket, body, ack));
    handle('media:join', (_body, ack) => this.mediaJoin(socket, ack));
    handle('media:connect', (body, ack) => this.mediaRequest(socket, mediaConnectSchema, body, ack, connect));
    handle('media:produce', (body, ack) => this.mediaProduce(socket, body, ack));
    handle('media:consume', (body, ack) => this.mediaRequest(socket, mediaConsumeSchema, body, ack, consume));
    handle('media:resume', (body, ack) => this.mediaRequest(socket, mediaResumeSchema, body, ack, resume));
    handle('media:fallback', (body, ack) => this.askForRelay(socket, 'fallback', body, ack));
    handle('report:opened', (body, ack) => this.askForRelay(socket, 'report-opened', body, ack));
    try {
      await ready;
    } catch (error) {
      this.logger.error(`video socket not attached: ${(error as Error).message}`);
      this.refuse(socket, undefined, 'unavailable', UNAVAILABLE);
      socket.disconnect(true);
    }
  }

  /** A socket that comes back after a blip says which call it was in; the matchmaker resumes it or says it is over. */
  private async resumeIfAsked(socket: VideoSocket) {
    // A session that ended between the handshake and now was told to no one here yet: look once more.
    if (!(await this.sessionLives(socket))) return;
    const asked = videoHandshakeAuthSchema.safeParse(socket.handshake.auth ?? {});
    // A malformed handshake resumes nothing; the socket stays, and may start matching.
    if (!asked.success) return this.refuse(socket, undefined, 'invalid', problemOf(asked.error));
    // A page gone already asks for nothing.
    if (!asked.data.matchId || !socket.connected) return;
    const { matchId, fresh } = asked.data;
    socket.data.resuming = { matchId, ...(fresh ? { fresh } : {}) };
    await this.request({ kind: 'resume', userId: socket.data.userId, socketId: socket.id, ...socket.data.resuming });
  }

  async handleDisconnect(socket: VideoSocket) {
    const { userId } = socket.data;
    if (!userId) return;
    // Its loss reaches the matchmaker after its resume: otherwise the resume would bind the call to a closed socket.
    await this.readiness.get(socket);
    try {
      await this.detach(socket);
    } catch (error) {
      this.logger.error(`video socket not detached: ${(error as Error).message}`);
    }
    await this.request({ kind: 'socket-lost', userId, socketId: socket.id });
  }

  onApplicationBootstrap() {
    // Every node hears each ban (a plain subscription, no queue): each closes the sockets it holds of that user.
    this.bans = this.core.bus.subscribe(eventSubject('moderation', 'UserBanned'), (message) => {
      const banned = checkContract(userBannedDataSchema, (message.data as { data?: unknown } | null)?.data);
      if (banned.ok) this.restrict(banned.value.userId);
      else this.logger.warn(`UserBanned dropped: ${banned.reason}`);
    });
    // A ban lifted at once (an appeal approved, an unban) must not keep the user out until the entry runs out.
    this.banEnds = this.core.bus.subscribe(eventSubject('moderation', 'BanEnded'), (message) => {
      const ended = checkContract(banEndedDataSchema, (message.data as { data?: unknown } | null)?.data);
      if (ended.ok) this.recentBans.delete(ended.value.userId);
    });
    // A new matchmaker (the last one's node died or lost its lock) knows no one: the people searching here are put
    // back in its queue rather than left waiting for a match that never comes (DESIGN.md "Processes and roles").
    this.leaders = this.core.bus.subscribe(MATCHMAKER_LEADS_SUBJECT, () => void this.tellNewLeader());
    // A node that dies without a word never says its sockets are lost: the matchmaker notices its beats stop.
    this.heartbeat = setInterval(() => {
      this.core.bus
        .publish({ subject: GATEWAY_ALIVE_SUBJECT, id: randomUUID(), data: { node: this.node } })
        .catch(() => undefined); // the bus is away: its own reconnection logs say so
    }, GATEWAY_HEARTBEAT_MS);
    this.heartbeat.unref();
  }

  private async tellNewLeader() {
    for (const { sockets } of this.local.values()) {
      for (const socket of sockets) {
        // A banned user's socket only waits to close; a closed one has said so (socket-lost).
        if (socket.data.restricted || !socket.connected) continue;
        const { seeking, resuming, userId, matchId, partnerId, partnerAlias, sfuNode, relayReason, call } = socket.data;
        // What was asked while no node led (the old leader's node had died) reached no one: asked again.
        if (seeking) await this.request({ kind: 'start', userId, socketId: socket.id, ...seeking });
        else if (resuming) await this.request({ kind: 'resume', userId, socketId: socket.id, ...resuming });
        // A call goes on without the matchmaker (a relayed one as long as its SFU runs); the new one is told of it,
        // so leaving, a reload or a report work as before, and a relayed call's room is made again if it is gone.
        else if (matchId && partnerId && partnerAlias && call && (!sfuNode || relayReason)) {
          const own = call.own ?? (await this.ownPublic(userId));
          // The socket may have closed, or left the call, while its profile was read.
          if (!own || !socket.connected || socket.data.matchId !== matchId) continue;
          await this.request({
            kind: 'adopt',
            userId,
            socketId: socket.id,
            matchId,
            role: call.role,
            sharedInterests: call.sharedInterests,
            own,
            partner: { userId: partnerId, alias: partnerAlias, public: call.partner },
            ...(sfuNode && relayReason ? { relay: { sfuNode, reason: relayReason } } : {}),
          });
        }
      }
    }
  }

  /** What a partner is shown of this user, read afresh (a socket that resumed its call never searched here). */
  private async ownPublic(userId: string) {
    const admission = admit(await this.users.userInfo(userId), 'desktop');
    return 'profile' in admission ? admission.profile.public : undefined;
  }

  async onApplicationShutdown() {
    clearInterval(this.heartbeat);
    await this.bans?.unsubscribe();
    await this.banEnds?.unsubscribe();
    await this.leaders?.unsubscribe();
    await Promise.all([...this.local.values()].map((l) => l.subscription.unsubscribe()));
    this.local.clear();
  }

  /** undefined when the socket may connect; otherwise why not. */
  private async authenticate(socket: VideoSocket): Promise<VideoHandshakeRefusal | undefined> {
    const claims = await this.sessions.resolve(socket.handshake);
    if (claims && this.bannedJustNow(claims.userId)) return { code: 'banned', reason: ACCOUNT_RESTRICTED };
    const user = claims ? await this.users.userInfo(claims.userId) : undefined;
    const refusal = admitSocket(user);
    if (refusal) return refusal;
    const { userId, sessionId } = claims!;
    if (!this.quota.admit(userId, socket)) return { code: 'rate-limited', reason: TOO_MANY_PAGES };
    socket.data.userId = userId;
    socket.data.sessionId = sessionId;
    return undefined;
  }

  private async startMatching(socket: VideoSocket, body: unknown, ack: Ack) {
    const request = startMatchingSchema.safeParse(body);
    if (!request.success) return this.refuse(socket, ack, 'invalid', problemOf(request.error));
    const { userId } = socket.data;
    if (!(await this.sessionLives(socket))) return;
    // Read again at every start: the profile may have changed, and a ban since the handshake counts.
    const admission = admit(await this.users.userInfo(userId), request.data.deviceType);
    if ('refusal' in admission) {
      this.refuse(socket, ack, admission.refusal.code, admission.refusal.reason);
      // The mailed link puts an unconfirmed address right: that socket may start once it is followed.
      if (admission.refusal.code !== 'email-unconfirmed') closeSoon(socket);
      return;
    }
    // A hidden IP is never paired peer to peer, so without a relay there is no call to offer.
    if (admission.profile.hideIp && !this.loads.relayAvailable()) {
      return this.refuse(socket, ack, 'unavailable', HIDE_IP_UNAVAILABLE);
    }
    forgetCall(socket);
    socket.data.resuming = undefined;
    socket.data.seeking = { seekId: randomUUID(), profile: admission.profile, filters: request.data.filters };
    await this.request({ kind: 'start', userId, socketId: socket.id, ...socket.data.seeking });
    ack?.({ status: 'searching' });
  }

  private async leave(socket: VideoSocket, body: unknown, ack: Ack) {
    const request = leaveVideoRoomSchema.safeParse(body);
    if (!request.success) return this.refuse(socket, ack, 'invalid', problemOf(request.error));
    const { next, failed } = request.data;
    const left = leftCall(socket);
    const reason = failed ? 'timeout' : next ? 'skip' : 'leave';
    await this.request({ kind: 'leave', userId: socket.data.userId, socketId: socket.id, reason, ...left });
    ack?.({ ok: true });
  }

  private async rtcConnected(socket: VideoSocket, body: unknown, ack: Ack) {
    const request = rtcConnectedSchema.safeParse(body);
    if (!request.success) return this.refuse(socket, ack, 'invalid', problemOf(request.error));
    const { matchId, partnerAlias, userId } = socket.data;
    if (!matchId || request.data.target !== partnerAlias) return this.refuse(socket, ack, 'not-in-call', NOT_IN_CALL);
    await this.request({ kind: 'rtc-connected', userId, socketId: socket.id, matchId });
    ack?.({ ok: true });
  }

  /** The caller's send and receive transports in the call's SFU room, and what the partner sends already. */
  private async mediaJoin(socket: VideoSocket, ack: Ack) {
    const call = relayedCall(socket.data);
    if (!call) return this.refuse(socket, ack, 'media', NOT_RELAYED);
    await this.askSfu(socket, ack, async () => {
      const joined = await this.sfu.send(call.sfuNode, { type: 'joinRoom', roomId: call.matchId, peerId: call.userId });
      const answer: MediaJoinAnswer = {
        routerRtpCapabilities: joined.routerRtpCapabilities,
        sendTransport: joined.sendTransport,
        recvTransport: joined.recvTransport,
        producers: joined.producers
          .filter((p) => p.peerId !== call.userId)
          .map(({ producerId, kind }) => ({ producerId, kind })),
      };
      return answer;
    });
  }

  /** A track the caller sends through the SFU; the partner is told, so they can receive it. */
  private async mediaProduce(socket: VideoSocket, body: unknown, ack: Ack) {
    const request = mediaProduceSchema.safeParse(body);
    if (!request.success) return this.refuse(socket, ack, 'invalid', problemOf(request.error));
    const call = relayedCall(socket.data);
    if (!call) return this.refuse(socket, ack, 'media', NOT_RELAYED);
    await this.askSfu(socket, ack, async () => {
      const produced = await this.sfu.send(call.sfuNode, {
        type: 'produce',
        roomId: call.matchId,
        peerId: call.userId,
        ...request.data,
      });
      await this.deliver(call.partnerId, {
        kind: 'relay',
        matchId: call.matchId,
        from: call.userId,
        event: 'media:producer',
        payload: { producerId: produced.producerId, kind: request.data.kind },
      });
      return produced;
    });
  }

  /** connect, consume, resume: checked here, then passed to the call's SFU node under the caller's own ids. */
  private async mediaRequest<T>(
    socket: VideoSocket,
    schema: { safeParse(body: unknown): { success: true; data: T } | { success: false; error: ZodLikeError } },
    body: unknown,
    ack: Ack,
    toRequest: (data: T, call: RelayedCall) => MediaRequest,
  ) {
    const request = schema.safeParse(body);
    if (!request.success) return this.refuse(socket, ack, 'invalid', problemOf(request.error));
    const call = relayedCall(socket.data);
    if (!call) return this.refuse(socket, ack, 'media', NOT_RELAYED);
    await this.askSfu(socket, ack, () => this.sfu.send(call.sfuNode, toRequest(request.data, call)));
  }

  /**
   * media:fallback (auto mode, the peer connection did not come up) and report:opened (the Report dialog opened): the
   * matchmaker moves the call to the SFU if it should and can. Either way the ask is answered ok: whether the call moves
   * shows as media:path.
   */
  private async askForRelay(socket: VideoSocket, kind: 'fallback' | 'report-opened', body: unknown, ack: Ack) {
    const request = mediaFallbackSchema.safeParse(body);
    if (!request.success) return this.refuse(socket, ack, 'invalid', problemOf(request.error));
    const { matchId, partnerAlias, userId, sfuNode } = socket.data;
    if (!matchId || request.data.target !== partnerAlias) return this.refuse(socket, ack, 'not-in-call', NOT_IN_CALL);
    // A relayed call is where it would move to already.
    if (!sfuNode) await this.request({ kind, userId, socketId: socket.id, matchId });
    ack?.({ ok: true });
  }

  /** The SFU's refusals reach the client as a reason; its answers as the ack. */
  private async askSfu(socket: VideoSocket, ack: Ack, work: () => Promise<unknown>) {
    let answer: unknown;
    try {
      answer = await work();
    } catch (error) {
      if (!(error instanceof SfuError)) throw error;
      return this.refuse(socket, ack, 'media', error.message);
    }
    ack?.(answer);
  }

  /** A relay goes to the sender's partner in the sender's current call, and to nobody else (DESIGN.md "Fan-out: NATS"). */
  private async relay(
    socket: VideoSocket,
    name: RelayName,
    relay: (typeof RELAYS)[RelayName],
    body: unknown,
    ack: Ack,
  ) {
    const parsed = relay.schema.safeParse(body);
    if (!parsed.success) return this.refuse(socket, ack, 'invalid', problemOf(parsed.error));
    if (name === 'sendChatMessage' && !(await this.withinLimit(this.chatLimit, socket.data.userId))) {
      return this.refuse(socket, ack, 'rate-limited', SLOW_DOWN);
    }
    // Per socket: a typing hint over the limit is dropped and the ack says so; no toast (it is only a hint).
    if (name === 'typing' && !(await this.withinLimit(this.typingLimit, socket.id))) {
      return ack?.({ error: { reason: SLOW_DOWN } });
    }
    // The client names its partner by the per-match id alone; the relay goes to the partner the server recorded.
    const { matchId, partnerId, partnerAlias, userId } = socket.data;
    if (!matchId || !partnerId || !partnerAlias || parsed.data.target !== partnerAlias) {
      return this.refuse(socket, ack, 'not-in-call', NOT_IN_CALL);
    }
    // In a relayed call no session description or candidate (they carry IP addresses) reaches the partner.
    if (socket.data.sfuNode && PEER_SIGNALLING.has(name)) return this.refuse(socket, ack, 'media', RELAYED);
    await this.deliver(partnerId, {
      kind: 'relay',
      matchId,
      from: userId,
      event: relay.event,
      payload: relay.payload(parsed.data as never),
    });
    ack?.({ ok: true });
  }

  /** What the matchmaker (or a partner's gateway) says to this user's sockets on this node. */
  private onDelivery(userId: string, delivery: UserDelivery) {
    const sockets = [...(this.local.get(userId)?.sockets ?? [])];
    const byId = (id: string) => sockets.find((s) => s.id === id);
    const inCall = (matchId: string) => sockets.filter((s) => s.data.matchId === matchId);
    switch (delivery.kind) {
      case 'match': {
        const socket = byId(delivery.socketId);
        // A banned user's socket joins no call; a call comes back only to a socket that asked for it (a resume it
        // withdrew, by Stop or a new search, is not answered into a call).
        if (!socket || socket.data.restricted) return;
        const { matchId } = delivery.match;
        if (
          delivery.event === 'matchResumed' &&
          socket.data.resuming?.matchId !== matchId &&
          socket.data.matchId !== matchId
        ) {
          return;
        }
        socket.data.matchId = matchId;
        socket.data.partnerId = delivery.partnerUserId;
        socket.data.partnerAlias = delivery.match.partnerId;
        socket.data.sfuNode = delivery.sfuNode;
        socket.data.relayReason = delivery.relayReason;
        const { _id, socketId: _socketId, ...partner } = delivery.match.partnerUser;
        socket.data.call = {
          role: delivery.match.role,
          sharedInterests: delivery.match.sharedInterests ?? [],
          partner,
          own: socket.data.seeking?.profile.public ?? socket.data.call?.own,
        };
        socket.data.seeking = undefined;
        socket.data.resuming = undefined;
        socket.emit(delivery.event, delivery.match);
        return;
      }
      case 'partner-left':
        for (const socket of inCall(delivery.matchId)) {
          forgetCall(socket);
          socket.emit('partnerDisconnected', { matchId: delivery.matchId, reason: delivery.reason });
        }
        return;
      case 'partner-reconnecting':
        for (const socket of inCall(delivery.matchId))
          socket.emit('partnerReconnecting', { matchId: delivery.matchId });
        return;
      case 'partner-reconnected': {
        const restart = delivery.mediaRestart ? { mediaRestart: true } : {};
        for (const socket of inCall(delivery.matchId)) {
          socket.emit('partnerReconnected', { matchId: delivery.matchId, ...restart });
        }
        return;
      }
      case 'call-over': {
        const socket = byId(delivery.socketId);
        if (!socket) return;
        socket.data.resuming = undefined;
        if (socket.data.matchId === delivery.matchId) forgetCall(socket);
        socket.emit('partnerDisconnected', { matchId: delivery.matchId, reason: 'disconnect' });
        return;
      }
      case 'media-path':
        for (const socket of inCall(delivery.matchId)) {
          socket.data.sfuNode = delivery.sfuNode;
          socket.data.relayReason = delivery.reason;
          socket.emit(delivery.event, {
            matchId: delivery.matchId,
            ...(delivery.event === 'media:path' ? { path: 'relay' as const } : {}),
          } as never);
        }
        return;
      case 'fully-connected':
        for (const socket of inCall(delivery.matchId))
          socket.emit('rtc-fully-connected', { matchId: delivery.matchId });
        return;
      case 'replaced': {
        const socket = byId(delivery.socketId);
        if (!socket) return;
        forgetCall(socket);
        socket.data.seeking = undefined;
        socket.data.resuming = undefined;
        socket.emit('videoError', { code: 'replaced', reason: 'Matching went on in another tab or window.' });
        return;
      }
      case 'unavailable': {
        const socket = byId(delivery.socketId);
        if (!socket) return;
        socket.data.seeking = undefined;
        this.refuse(socket, undefined, 'unavailable', UNAVAILABLE);
        return;
      }
      case 'relay':
        for (const socket of inCall(delivery.matchId)) {
          if (socket.data.partnerId !== delivery.from) continue;
          // The partner as this client knows them: their per-match id, never their user id.
          (socket.emit as (event: string, payload: unknown) => boolean)(delivery.event, {
            ...delivery.payload,
            from: socket.data.partnerAlias,
          });
        }
        return;
      default: {
        const unknown: never = delivery;
        this.logger.warn(`unknown video delivery ${JSON.stringify(unknown)}`);
      }
    }
  }

  /** The first socket of a user on this node subscribes to their deliveries; it is ready before any request. */
  private async attach(socket: VideoSocket) {
    const { userId, sessionId } = socket.data;
    const registered = this.realtime.register({
      userId,
      sessionId,
      roles: [],
      endSession: ({ reason }) => void this.endSession(socket, reason),
    });
    this.unregister.set(socket, registered);
    const existing = this.local.get(userId);
    if (existing) {
      existing.sockets.add(socket);
      await registered;
      return;
    }
    const subscription = this.core.bus.subscribe(videoSubject(userId), (message) => {
      // A delivery outside the contract is dropped; the reason names fields, never the personal data it carries.
      const delivery = parseUserDelivery(message.data, (reason) =>
        this.logger.warn(`video delivery dropped: ${reason}`),
      );
      if (delivery) this.onDelivery(userId, delivery);
    });
    this.local.set(userId, { sockets: new Set([socket]), subscription });
    await Promise.all([(subscription as BusSubscription & { ready?: Promise<void> }).ready, registered]);
  }

  /** False (and the socket closed) once its session has ended; the push that says so may not have reached it. */
  private async sessionLives(socket: VideoSocket): Promise<boolean> {
    const { userId, sessionId } = socket.data;
    if (await this.sessions.isActive({ userId, sessionId })) return true;
    await this.endSession(socket, SESSION_EXPIRED);
    return false;
  }

  /**
   * spec 3 "Ban": the banned user's sockets on this node hear why and close. The matchmaker (which hears the ban too)
   * ends their search or call with the reason 'ban', so the partner hears it and searches again.
   */
  private restrict(userId: string) {
    this.recentBans.set(userId, Date.now() + RECENT_BAN_MS);
    for (const socket of [...(this.local.get(userId)?.sockets ?? [])]) {
      socket.data.restricted = true;
      socket.data.seeking = undefined;
      socket.data.resuming = undefined;
      forgetCall(socket);
      this.refuse(socket, undefined, 'banned', ACCOUNT_RESTRICTED);
      closeSoon(socket);
    }
  }

  /**
   * A ban this node heard of lately. The user info admission reads comes from a read model that takes a ban in a moment
   * after the ban is heard here: meanwhile, this says no to the handshake and to every event.
   */
  private bannedJustNow(userId: string): boolean {
    const until = this.recentBans.get(userId);
    if (until === undefined) return false;
    if (until > Date.now()) return true;
    this.recentBans.delete(userId);
    return false;
  }

  /** Its session ended (spec 3): the client hears why, the search or call ends at once, then the socket closes. */
  private async endSession(socket: VideoSocket, reason: string) {
    const left = leftCall(socket);
    this.refuse(socket, undefined, 'unauthenticated', reason);
    await this.request({ kind: 'leave', userId: socket.data.userId, socketId: socket.id, reason: 'leave', ...left });
    socket.disconnect(true);
  }

  private async detach(socket: VideoSocket) {
    const unregister = this.unregister.get(socket);
    this.unregister.delete(socket);
    if (unregister) await (await unregister)();
    const entry = this.local.get(socket.data.userId);
    if (!entry) return;
    entry.sockets.delete(socket);
    if (entry.sockets.size > 0) return;
    this.local.delete(socket.data.userId);
    await entry.subscription.unsubscribe();
  }

  private async request(request: CoordinatorRequest) {
    try {
      await this.core.bus.publish({
        subject: MATCHING_REQUESTS_SUBJECT,
        id: randomUUID(),
        data: { ...request, node: this.node },
      });
    } catch (error) {
      this.logger.error(`matching request ${request.kind} not sent: ${(error as Error).message}`);
    }
  }

  private async deliver(userId: string, delivery: UserDelivery) {
    try {
      await this.core.bus.publish({ subject: videoSubject(userId), id: randomUUID(), data: delivery });
    } catch (error) {
      this.logger.error(`video delivery ${delivery.kind} not sent: ${(error as Error).message}`);
    }
  }

  private async withinLimit(limiter: RateLimiterMemory, key: string): Promise<boolean> {
    try {
      await limiter.consume(key);
      return true;
    } catch (error) {
      if (error instanceof RateLimiterRes) return false;
      throw error;
    }
  }

  /** A refused event changes nothing; the client hears why (ack and a videoError event). */
  private refuse(socket: VideoSocket, ack: Ack, code: VideoErrorCode, reason: string) {
    ack?.({ error: { reason } });
    // A media refusal is the client's own business (a join during a skip, a candidate after the move to the SFU):
    // the ack says it; a videoError would put a toast in front of the user that they can do nothing about.
    if (code !== 'media') socket.emit('videoError', { code, reason });
  }
}

/** Longer than any read model takes to take a ban in (it is milliseconds); an expired entry is dropped on the next look. */
const RECENT_BAN_MS = 60_000;

/** How long a refused client has to close its video socket itself before the server does. */
const CLIENT_CLOSE_GRACE_MS = 2_000;

/**
 * Closes the video namespace of a refused client, letting the client do it first. The page's system socket shares the
 * connection and must stay (it tells the banned screen live); Socket.IO ends the whole connection when a client's
 * disconnect reaches a namespace the server already closed, so the server only closes one the client left open.
 */
function closeSoon(socket: VideoSocket) {
  setTimeout(() => {
    if (socket.connected) socket.disconnect();
  }, CLIENT_CLOSE_GRACE_MS).unref();
}

/**
 * The socket stops searching and leaves its call (or the one it was coming back to); returns that call's id for the
 * matchmaker, which may not know the call yet (a new leader).
 */
function leftCall(socket: VideoSocket): { matchId?: string } {
  const matchId = socket.data.matchId ?? socket.data.resuming?.matchId;
  forgetCall(socket);
  socket.data.seeking = undefined;
  socket.data.resuming = undefined;
  return matchId ? { matchId } : {};
}

/** The socket is in no call now: relays from it go nowhere until the matchmaker names a new partner. */
function forgetCall(socket: VideoSocket) {
  socket.data.call = undefined;
  socket.data.matchId = undefined;
  socket.data.partnerId = undefined;
  socket.data.partnerAlias = undefined;
  socket.data.sfuNode = undefined;
  socket.data.relayReason = undefined;
}

const SLOW_DOWN = 'Too many messages; slow down a little.';
const NOT_IN_CALL = 'You are not in a call with that person.';
const HIDE_IP_UNAVAILABLE =
  "Calls that hide your IP address can't be made right now. Try again later, or turn off 'Hide my IP address' in Settings.";
const NOT_RELAYED = 'This call does not go through our media servers.';
const RELAYED = 'This call goes through our media servers; peer-to-peer signalling is off.';
const UNAVAILABLE = 'Matching is unavailable right now. Please try again in a moment.';
