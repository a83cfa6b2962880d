import { randomUUID } from 'node:crypto';
import type { IceServer, MatchFilters, MatchFound, MediaMode, PartnerLeftReason, RelayReason } from '@serendip/proto';
import { GATEWAY_HEARTBEAT_MS, INTEREST_WAIT_MS, MATCH_RECONNECT_GRACE_MS, SKIP_COOLDOWN_MS } from '@serendip/proto';
import type { MatchDecision } from '../domain/match.decider.js';
import type { MatchEndReason } from '../domain/match.events.js';
import type { MatchmakerPort, Pair, Seeker } from '../domain/matchmaker.js';
import type { PublicProfile } from '@serendip/proto';
import type { CoordinatorRequest, LeaderRequest, SeekerProfile, UserDelivery } from './coordinator.messages.js';

/**
 * How long a new leader waits for the gateways to tell it of the calls in progress (adopt) before it says a call a
 * socket resumes is over: a page whose node died may reconnect to another node before that node's gateway has told.
 */
export const ADOPTION_WINDOW_MS = 3_000;
/** While gateways are still telling (a busy node tells of its calls one by one), the window lasts this long past each. */
const ADOPTION_EXTENSION_MS = 1_000;

/** A gateway node not heard for this long, while others are, is gone: its sockets are lost (see nodeAlive). */
export const NODE_SILENT_MS = 4 * GATEWAY_HEARTBEAT_MS;

/** How many ended calls a leader remembers, so that a gateway's late word about one does not make it again. */
const REMEMBERED_ENDINGS = 10_000;

export interface CoordinatorPorts {
  matchmaker: MatchmakerPort;
  /** Sends to the gateways holding `userId`'s sockets (bus subject `user.<id>`). */
  deliver(userId: string, delivery: UserDelivery): Promise<void>;
  /** Appends the call's events (MatchPaired, MatchEnded) to the log. */
  record(decision: MatchDecision): Promise<void>;
  iceServers(userId: string): IceServer[];
  /** How calls carry their media (DESIGN.md "Matching"), and the SFU rooms of relayed ones. */
  media: {
    mode: MediaMode;
    /** Whether an SFU node can relay calls now; without one, calls go peer to peer. */
    relayAvailable(): boolean;
    /**
     * Makes the call's room on an SFU node for its two users (the only peers the room takes) and names the node;
     * throws when relay is unavailable (no node, all full, or no answer in time). `on`: the node asked first, which
     * gives back the room it still holds for the call.
     */
    openRoom(matchId: string, userIds: readonly [string, string], on?: string): Promise<string>;
    closeRoom(matchId: string, sfuNode: string): Promise<void>;
  };
  now(): number;
  newId(): string;
  graceMs?: number;
  onError(error: unknown, what: string): void;
}

interface Waiting {
  socketId: string;
  /** The gateway node holding the socket, when it says. */
  node?: string;
  /** The search (one press of Start) this is, when the gateway names it. */
  seekId?: string;
  profile: SeekerProfile;
  filters: MatchFilters;
}

/** A resume of a call this new leader does not know yet, held until the gateways tell of it (see takeOver). */
interface HeldResume {
  socketId: string;
  node?: string;
  matchId: string;
  fresh: boolean;
  timer: ReturnType<typeof setTimeout>;
}

interface Side {
  userId: string;
  /** How the partner knows this side in this call only (random, new each match): never the user id. */
  alias: string;
  /** null while the socket is away within the grace period. */
  socketId: string | null;
  /** The gateway node holding the socket, when it says. */
  node?: string;
  /** What the partner is shown of this side. */
  public: PublicProfile;
  /** The search that made this call, if the gateway named it: asked again, it is not a new search. */
  seekId?: string;
  graceTimer?: ReturnType<typeof setTimeout>;
  rtcConnected: boolean;
  /** The interests both sides chose, in the order this side listed them. */
  sharedInterests: string[];
}

interface Call {
  matchId: string;
  sides: [Side, Side];
  /** spec 4: the peer with the lower socket id creates the offer; fixed at pairing, so a resumed side keeps its part. */
  offererId: string;
  /** The SFU node while the call is relayed, and why it is. */
  relay?: { sfuNode: string; reason: RelayReason };
}

/** What an SFU call came to. */
type Outcome<T> = { ok: true; value: T } | { ok: false; error: unknown };

/** A call whose SFU room is being made: what its users (and the call) asked meanwhile, to run once it is. */
interface Busy {
  deferred: (() => Promise<void>)[];
}

/** The part of a request that finishes outside the loop (an SFU room being made): done when it is. */
interface Later {
  later: Promise<void>;
}

/**
 * The one matchmaker of a deployment (the leader): it owns the waiting queue and the live calls, pairs people,
 * records every pairing and ending in the log, and tells each side's gateway. Requests are handled one at a time
 * (in arrival order), so the queue and the calls never race. SFU rooms are made outside that loop (an SFU may
 * take its 2 s to answer, or never): while a call's room is being made, what its two users ask waits for it, in
 * order, and everyone else is paired meanwhile.
 */
export class MatchCoordinator {
  private readonly waiting = new Map<string, Waiting>();
  private readonly calls = new Map<string, Call>();
  private readonly callOf = new Map<string, string>();
  /** The users, and the calls, whose SFU room is being made. */
  private readonly busyUsers = new Map<string, Busy>();
  private readonly busyCalls = new Map<string, Busy>();
  /** Each ends the hold of users who wait for a partner sharing an interest (matchmaker.release). */
  private readonly releaseTimers = new Set<ReturnType<typeof setTimeout>>();
  private stopped = false;
  /** Until when resumes of calls it does not know wait for the gateways' word (see takeOver). */
  private adoptingUntil = 0;
  /** Per user: their resume waiting for the gateways' word. */
  private readonly heldResumes = new Map<string, HeldResume>();
  /** Calls not known here that a side left while the gateways tell: who left, and how. */
  private readonly leftWhileAdopting = new Map<string, { userId: string; reason: MatchEndReason }>();
  /** Users banned while the gateways tell, with no call known here then. */
  private readonly bannedWhileAdopting = new Set<string>();
  /** The calls that ended lately, oldest first. */
  private readonly ended = new Set<string>();
  /** When each gateway node was last heard (a heartbeat, or a request naming it). */
  private readonly nodesHeard = new Map<string, number>();
  /** Nodes found silent (their sockets lost): one heard again was only cut off from the bus, not dead. */
  private readonly silentNodes = new Set<string>();
  /** When any heartbeat was last heard: none for a while means the bus, not a node, is down. */
  private lastHeartbeat = 0;
  private readonly sweep: ReturnType<typeof setInterval>;
  private tail: Promise<void> = Promise.resolve();
  private readonly graceMs: number;

  constructor(private readonly ports: CoordinatorPorts) {
    this.graceMs = ports.graceMs ?? MATCH_RECONNECT_GRACE_MS;
    this.sweep = setInterval(() => this.sweepSilentNodes(), GATEWAY_HEARTBEAT_MS);
    this.sweep.unref?.();
  }

  /**
   * A gateway node's heartbeat. After a time with none from anyone (the bus was down, or this leader was cut off), every
   * node is given a fresh NODE_SILENT_MS: the first beat back must not make the others look dead.
   */
  nodeAlive(node: string): 'back' | undefined {
    const now = this.ports.now();
    if (now - this.lastHeartbeat > 2 * GATEWAY_HEARTBEAT_MS)
      for (const known of this.nodesHeard.keys()) this.nodesHeard.set(known, now);
    this.lastHeartbeat = now;
    this.nodesHeard.set(node, now);
    // Its sockets were taken for lost: the caller has its gateway tell again what they search for and which calls
    // they are in (as for a new leader).
    return this.silentNodes.delete(node) ? 'back' : undefined;
  }

  /** Nodes silent for NODE_SILENT_MS while the bus carries others' beats are gone; so are their sockets. */
  private sweepSilentNodes() {
    const now = this.ports.now();
    if (this.stopped || now - this.lastHeartbeat > 2 * GATEWAY_HEARTBEAT_MS) return;
    for (const [node, heard] of this.nodesHeard) {
      if (now - heard <= NODE_SILENT_MS) continue;
      this.nodesHeard.delete(node);
      this.silentNodes.add(node);
      if (this.silentNodes.size > REMEMBERED_ENDINGS) this.silentNodes.delete(this.silentNodes.values().next().value!);
      void this.handle({ kind: 'node-lost', node });
    }
  }

  /**
   * This leader follows another, whose calls it does not know: the gateways are about to tell it (adopt), so for
   * ADOPTION_WINDOW_MS a socket resuming an unknown call is answered once they have, not told the call is over.
   */
  takeOver(): void {
    this.adoptingUntil = this.ports.now() + ADOPTION_WINDOW_MS;
  }

  /**
   * Handles requests strictly one after another, whatever their source (the bus, a grace timer). Resolves once the
   * request is done, an SFU room it waits for included; the next request does not wait for that room.
   */
  handle(request: LeaderRequest): Promise<void> {
    let later: Promise<void> | undefined;
    return this.serially(async () => {
      later = (await this.dispatch(request))?.later;
    }).then(() => later);
  }

  /** A skip seen in the log before this leader started: its cooldown still holds. */
  rememberSkip(skipper: string, skipped: string, endedAt: number): void {
    this.ports.matchmaker.avoid(skipper, skipped, endedAt + SKIP_COOLDOWN_MS);
  }

  /**
   * A report keeps these two apart for good (DESIGN.md "Matching"): from the log when this leader starts, and as each
   * new one is recorded. Either may be waiting, or in a call, now: the next pairing already leaves them apart.
   */
  keepApart(a: string, b: string): void {
    this.ports.matchmaker.avoid(a, b, Infinity);
  }

  /** For the leader's handover and for tests: who is waiting, who is in which call. */
  snapshot() {
    return {
      waiting: [...this.waiting.keys()],
      calls: [...this.calls.values()].map((c) => ({ matchId: c.matchId, userIds: c.sides.map((s) => s.userId) })),
    };
  }

  /** The dashboard's live figures (spec 2 "Admin dashboard"): who is searching, calls on now, those relayed. */
  liveCounts() {
    let relayedCalls = 0;
    for (const call of this.calls.values()) if (call.relay) relayedCalls++;
    return { searching: this.waiting.size, inCalls: this.calls.size, relayedCalls };
  }

  /**
   * Stops the grace timers; the calls are forgotten here. Their SFU rooms stay: the gateways tell the next leader of
   * each call (adopt), which takes its room over. (A room nobody takes over is closed by its SFU once no one is
   * connected to it.) Rooms still being made, for calls nobody has heard of, are closed as they come (openRoomOffLoop).
   */
  stop(): void {
    this.stopped = true;
    clearInterval(this.sweep);
    for (const timer of this.releaseTimers) clearTimeout(timer);
    this.releaseTimers.clear();
    for (const call of this.calls.values()) for (const side of call.sides) clearTimeout(side.graceTimer);
  }

  private serially(work: () => Promise<void>): Promise<void> {
    const run = this.tail.then(work).catch((error: unknown) => this.ports.onError(error, 'a matching request'));
    this.tail = run;
    return run;
  }

  private async dispatch(request: LeaderRequest): Promise<Later | void> {
    if (request.kind === 'node-lost') return this.nodeLost(request.node);
    // A request is word from its node as good as a heartbeat.
    if ('node' in request && request.node) this.nodesHeard.set(request.node, this.ports.now());
    const busy =
      request.kind === 'room-lost' ? this.busyCalls.get(request.matchId) : this.busyUsers.get(request.userId);
    // About a call whose room is being made: handled once it is, as if the room had been made at once.
    if (busy) return { later: new Promise((resolve) => busy.deferred.push(() => this.redispatch(request, resolve))) };
    switch (request.kind) {
      case 'start':
        return this.start(request);
      case 'leave':
        return this.leave(request.userId, request.socketId, request.reason, request.matchId);
      case 'socket-lost':
        return this.socketLost(request.userId, request.socketId);
      case 'resume':
        return this.resume(request.userId, request.socketId, request.matchId, request.fresh === true, request.node);
      case 'rtc-connected':
        return this.rtcConnected(request.userId, request.socketId, request.matchId);
      case 'fallback':
        return this.fallback(request.userId, request.socketId, request.matchId);
      case 'report-opened':
        return this.reportOpened(request.userId, request.socketId, request.matchId);
      case 'banned':
        return this.banned(request.userId);
      case 'room-lost':
        return this.roomLost(request.matchId, request.sfuNode);
      case 'adopt':
        return this.adopt(request);
      default: {
        const unknown: never = request;
        throw new Error(`unhandled matching request ${JSON.stringify(unknown)}`);
      }
    }
  }

  private async redispatch(request: LeaderRequest, done: () => void): Promise<void> {
    try {
      const again = await this.dispatch(request);
      void (again?.later ?? Promise.resolve()).then(done);
    } catch (error) {
      done();
      throw error;
    }
  }

  /**
   * Makes a call's SFU room outside the loop. Until the SFU answers (the client gives up after 2 s), requests about
   * the call or its users wait; then `done` runs in the loop with the answer, and after it what they asked, in order.
   */
  private openRoomOffLoop(
    matchId: string,
    userIds: readonly [string, string],
    done: (room: Outcome<string>) => Promise<void>,
    on?: string,
  ): Later {
    const busy: Busy = { deferred: [] };
    for (const userId of userIds) this.busyUsers.set(userId, busy);
    this.busyCalls.set(matchId, busy);
    const room = this.ports.media.openRoom(matchId, userIds, on).then(
      (value): Outcome<string> => ({ ok: true, value }),
      (error: unknown): Outcome<string> => ({ ok: false, error }),
    );
    const later = room.then((answer) =>
      this.serially(async () => {
        for (const userId of userIds) if (this.busyUsers.get(userId) === busy) this.busyUsers.delete(userId);
        if (this.busyCalls.get(matchId) === busy) this.busyCalls.delete(matchId);
        if (this.stopped) {
          // A leader that stood down holds no calls: the room would hold ports for nobody.
          if (answer.ok) await this.closeRoom(matchId, answer.value);
          return;
        }
        try {
          await done(answer);
        } finally {
          for (const run of busy.deferred) {
            await run().catch((error: unknown) => this.ports.onError(error, 'a matching request'));
          }
        }
      }),
    );
    return { later };
  }

  private async start(request: Extract<CoordinatorRequest, { kind: 'start' }>): Promise<Later | void> {
    const { userId, socketId, seekId, profile, filters, node } = request;
    // The same search asked again (a gateway telling a new leader): it is waiting, or already paired.
    if (seekId && (this.waiting.get(userId)?.seekId === seekId || this.sideIn(userId)?.seekId === seekId)) return;
    // A new search is not a way back to an old call; a tab that waited for one has been replaced by this one.
    const held = this.withdrawResume(userId);
    if (held && held.socketId !== socketId)
      await this.ports.deliver(userId, { kind: 'replaced', socketId: held.socketId });
    // One matching session per user: a newer tab (socket) takes over from an older one.
    const queued = this.waiting.get(userId);
    if (queued && queued.socketId !== socketId)
      await this.ports.deliver(userId, { kind: 'replaced', socketId: queued.socketId });
    const call = this.callFor(userId);
    if (call) {
      // Searching again from inside a call leaves it (the gateway has already forgotten it for this socket).
      const side = this.sideOf(call, userId);
      if (side.socketId && side.socketId !== socketId) {
        await this.ports.deliver(userId, { kind: 'replaced', socketId: side.socketId });
      }
      await this.end(call, userId, 'leave');
    }

    this.waiting.set(userId, { socketId, node, ...(seekId ? { seekId } : {}), profile, filters });
    const pair = this.ports.matchmaker.arrive(seeker(userId, profile, filters), this.ports.now());
    if (pair) return this.paired(pair);
    if (filters.interests?.length) this.releaseLater();
  }

  /**
   * A user waiting for someone who shares an interest is held for INTEREST_WAIT_MS at most: then the matchmaker
   * pairs them with anyone compatible, if anyone waits (or they wait on, open to anyone).
   */
  private releaseLater() {
    // A timer may fire a millisecond before Date.now() says the hold is over: the slack keeps it from missing.
    const timer = setTimeout(() => {
      this.releaseTimers.delete(timer);
      void this.handleReleases();
    }, INTEREST_WAIT_MS + 5);
    this.releaseTimers.add(timer);
  }

  private handleReleases(): Promise<void> {
    const laters: Promise<void>[] = [];
    return this.serially(async () => {
      if (this.stopped) return;
      for (const pair of this.ports.matchmaker.release(this.ports.now())) {
        const later = await this.paired(pair);
        if (later) laters.push(later.later);
      }
    }).then(() => Promise.all(laters).then(() => undefined));
  }

  /** The matchmaker paired two waiting users: they leave the queue, and their call begins. */
  private async paired(pair: Pair): Promise<Later | void> {
    const first = this.waiting.get(pair.waiting.userId)!;
    const second = this.waiting.get(pair.arrival.userId)!;
    this.waiting.delete(pair.waiting.userId);
    this.waiting.delete(pair.arrival.userId);

    const matchId = this.ports.newId();
    // Relay mode relays every call; "hide my IP" on either side relays theirs. No relay, no call: a
    // hidden IP must never fall back to peer to peer.
    const relayReason: RelayReason | undefined =
      first.profile.hideIp || second.profile.hideIp
        ? 'hide-ip'
        : this.ports.media.mode === 'relay' && this.ports.media.relayAvailable()
          ? 'relay-mode'
          : undefined;
    if (!relayReason) return this.pairUp(pair, first, second, matchId);
    const userIds = [pair.waiting.userId, pair.arrival.userId] as const;
    return this.openRoomOffLoop(matchId, userIds, (room) =>
      this.pairUp(pair, first, second, matchId, { reason: relayReason, room }),
    );
  }

  /** Records a pairing and tells both; a relayed one with the SFU's answer to its room. */
  private async pairUp(
    pair: Pair,
    first: Waiting,
    second: Waiting,
    matchId: string,
    relayed?: { reason: RelayReason; room: Outcome<string> },
  ) {
    const unavailable = () =>
      Promise.all([
        this.ports.deliver(pair.waiting.userId, { kind: 'unavailable', socketId: first.socketId }),
        this.ports.deliver(pair.arrival.userId, { kind: 'unavailable', socketId: second.socketId }),
      ]);
    let relay: Call['relay'];
    if (relayed) {
      const { room, reason } = relayed;
      if (room.ok) relay = { sfuNode: room.value, reason };
      else {
        this.ports.onError(room.error, 'opening a relayed call');
        // Relay mode without a room goes peer to peer, as when no SFU can relay; a hidden IP never does.
        if (reason === 'hide-ip') return void (await unavailable());
      }
    }
    try {
      await this.ports.record({
        type: 'Pair',
        matchId,
        sides: [
          { userId: pair.waiting.userId, filters: first.filters, waitedMs: pair.waitedMs },
          { userId: pair.arrival.userId, filters: second.filters, waitedMs: pair.arrivalWaitedMs },
        ],
      });
    } catch (error) {
      // A call the log does not hold must not happen (audit); neither may two people wait for it forever.
      this.ports.onError(error, 'recording a pairing');
      if (relay) await this.closeRoom(matchId, relay.sfuNode);
      await unavailable();
      return;
    }
    if (relay) await this.recordRelay(matchId, relay);
    const newCall: Call = {
      matchId,
      relay,
      offererId: first.socketId < second.socketId ? pair.waiting.userId : pair.arrival.userId,
      sides: [
        {
          userId: pair.waiting.userId,
          alias: randomUUID(),
          socketId: first.socketId,
          node: first.node,
          public: first.profile.public,
          seekId: first.seekId,
          rtcConnected: false,
          sharedInterests: inOrderOf(first.filters, pair.sharedInterests),
        },
        {
          userId: pair.arrival.userId,
          alias: randomUUID(),
          socketId: second.socketId,
          node: second.node,
          public: second.profile.public,
          seekId: second.seekId,
          rtcConnected: false,
          sharedInterests: inOrderOf(second.filters, pair.sharedInterests),
        },
      ],
    };
    this.calls.set(matchId, newCall);
    for (const side of newCall.sides) this.callOf.set(side.userId, matchId);
    await Promise.all(newCall.sides.map((side) => this.sendMatch(newCall, side, 'matchFound')));
  }

  private async leave(userId: string, socketId: string, reason: 'leave' | 'skip' | 'timeout', matchId?: string) {
    const held = this.withdrawResume(userId, socketId);
    const queued = this.waiting.get(userId);
    if (queued?.socketId === socketId) {
      this.waiting.delete(userId);
      this.ports.matchmaker.leave(userId);
    }
    const call = this.callFor(userId);
    if (!call) return this.leftUnknownCall(matchId ?? held?.matchId, userId, reason);
    const side = this.sideOf(call, userId);
    // A page that leaves may close its socket at once: its loss can arrive first, and the side is away (no socket)
    // when the leave comes. It is still this person leaving: the partner hears 'leave' now, not a lost connection
    // after the grace period. A side held by another socket (a newer tab) is not ended by an old one.
    if (side.socketId === socketId || side.socketId === null) await this.end(call, userId, reason);
  }

  private async socketLost(userId: string, socketId: string) {
    // Its grace period starts when a gateway tells of the call (adopt), as after any blip.
    this.withdrawResume(userId, socketId);
    const queued = this.waiting.get(userId);
    // A search is simply dropped: the client searches again when its socket is back.
    if (queued?.socketId === socketId) {
      this.waiting.delete(userId);
      this.ports.matchmaker.leave(userId);
    }
    const call = this.callFor(userId);
    if (!call) return;
    const side = this.sideOf(call, userId);
    if (side.socketId !== socketId) return;
    // The call stays up for a while: a socket that blips comes back to it (spec 9 "Socket reconnection"). The partner
    // is told, so their screen says 'Reconnecting...' rather than showing a frozen frame.
    side.socketId = null;
    await this.tellPartner(call, side, 'partner-reconnecting');
    this.awaitReturn(call, side);
  }

  /** The side has the grace period to come back; then the call is over as a lost connection. */
  private awaitReturn(call: Call, side: Side) {
    const { userId } = side;
    side.graceTimer = setTimeout(() => {
      void this.serially(async () => {
        const still = this.calls.get(call.matchId);
        if (still && this.sideOf(still, userId).socketId === null) await this.end(still, null, 'disconnect', userId);
      });
    }, this.graceMs);
  }

  /**
   * A socket back within the grace period takes its side of the call again (a call that is over, or someone else's,
   * is 'call-over'). `fresh`: a new page (a reload, a new tab) whose media went with the old one: the media starts
   * over, and the side that stayed offers the new peer connection, so its offer reaches the new page after its
   * matchResumed.
   */
  private async resume(userId: string, socketId: string, matchId: string, fresh: boolean, node?: string) {
    const call = this.calls.get(matchId);
    const side = call?.sides.find((s) => s.userId === userId);
    const wait = this.adoptingUntil - this.ports.now();
    if (!call && wait > 0 && !this.stopped) {
      // A new leader: the call may be told of in a moment (adopt), which answers it at once; if nobody tells, it is
      // asked again once the window is over (and hears the call is over).
      this.withdrawResume(userId);
      const timer = setTimeout(() => {
        this.releaseTimers.delete(timer);
        if (this.heldResumes.get(userId)?.timer !== timer) return;
        this.heldResumes.delete(userId);
        void this.handle({ kind: 'resume', userId, socketId, node, matchId, ...(fresh ? { fresh } : {}) });
      }, wait + 5);
      this.releaseTimers.add(timer);
      this.heldResumes.set(userId, { socketId, node, matchId, fresh, timer });
      return;
    }
    if (!call || !side) {
      await this.ports.deliver(userId, { kind: 'call-over', socketId, matchId });
      return;
    }
    // Asked again by the same socket (its gateway asked a new leader, which had answered already): told again, and
    // nothing more (a fresh page's media must not start over twice).
    if (side.socketId === socketId) return this.sendMatch(call, side, 'matchResumed');
    clearTimeout(side.graceTimer);
    side.graceTimer = undefined;
    const previous = side.socketId;
    side.socketId = socketId;
    side.node = node;
    if (previous && previous !== socketId) await this.ports.deliver(userId, { kind: 'replaced', socketId: previous });
    if (fresh) {
      call.offererId = this.partnerOf(call, side).userId;
      // Neither side is connected over the new media yet: 'fully-connected' is said again once both are.
      for (const s of call.sides) s.rtcConnected = false;
    }
    await this.sendMatch(call, side, 'matchResumed');
    // A new page's socket may arrive before the old one is seen gone: the partner must hear of it all the same.
    if (fresh) await this.tellPartner(call, side, 'partner-reconnected', true);
    else if (previous === null) await this.tellPartner(call, side, 'partner-reconnected');
  }

  /**
   * A call in progress when this leader took over (the last one died with its calls), as a gateway holding one side
   * knows it. The first side told makes the call, with the other side away (its grace period runs, as after a blip);
   * the other side's own word, or its resume, brings it back. A user who meanwhile searches or is in another call
   * here has moved on: the old call is not made again.
   */
  private async adopt(request: Extract<CoordinatorRequest, { kind: 'adopt' }>) {
    const { userId, socketId, matchId, partner } = request;
    const over = () => this.ports.deliver(userId, { kind: 'call-over', socketId, matchId });
    // The gateways are still telling: the window stays open a little longer for the resumes waiting on them.
    const now = this.ports.now();
    if (now < this.adoptingUntil) this.adoptingUntil = Math.max(this.adoptingUntil, now + ADOPTION_EXTENSION_MS);
    const known = this.calls.get(matchId);
    if (known) {
      const side = known.sides.find((s) => s.userId === userId);
      const other = known.sides.find((s) => s.userId === partner.userId);
      if (!side || !other) return over();
      // Told twice, or this side is back on another socket already.
      if (side.socketId !== null) return;
      // This side's gateway knows the alias the partner's client knows this call by.
      other.alias = partner.alias;
      clearTimeout(side.graceTimer);
      side.graceTimer = undefined;
      side.socketId = socketId;
      side.node = request.node;
      // Its node was taken for dead (the partner heard 'Reconnecting...'), or the partner's gateway told first.
      await this.tellPartner(known, side, 'partner-reconnected');
      return this.answerHeldResume(other.userId, matchId);
    }
    // The call ended here already (the other side's gateway told first, then it ended), or one of the two has moved
    // on: the page still showing it hears it is over, and its room, if it still stands, is closed.
    if (
      this.ended.has(matchId) ||
      this.waiting.has(userId) ||
      this.waiting.has(partner.userId) ||
      this.callFor(userId) ||
      this.callFor(partner.userId)
    ) {
      if (request.relay) void this.closeRoom(matchId, request.relay.sfuNode);
      return over();
    }
    const side: Side = {
      userId,
      // Known only to the partner's gateway: until it tells (or if it never can), the partner hears a new one.
      alias: randomUUID(),
      socketId,
      node: request.node,
      public: request.own,
      rtcConnected: true,
      sharedInterests: request.sharedInterests,
    };
    const other: Side = {
      userId: partner.userId,
      alias: partner.alias,
      socketId: null,
      public: partner.public,
      rtcConnected: true,
      sharedInterests: request.sharedInterests,
    };
    const call: Call = {
      matchId,
      sides: [side, other],
      offererId: request.role === 'offerer' ? userId : partner.userId,
    };
    this.calls.set(matchId, call);
    this.callOf.set(userId, matchId);
    this.callOf.set(partner.userId, matchId);
    // The partner pressed Stop (or was banned) while no leader knew the call: it ends now, as they ended it.
    const left = this.leftWhileAdopting.get(matchId);
    if (left?.userId === partner.userId) {
      this.leftWhileAdopting.delete(matchId);
      return this.end(call, partner.userId, left.reason);
    }
    if (this.bannedWhileAdopting.has(partner.userId)) return this.end(call, partner.userId, 'ban');
    this.awaitReturn(call, other);
    if (request.relay) {
      // A relayed call's room may have gone with the node that died (an SFU runs in each backend process by
      // default), and nothing would say so: the SFU's reports went to the old leader. So its node is asked for it
      // (it gives back the room it still holds), else another makes it anew, and both sides join it. The partner's
      // page, if it asked to come back meanwhile, then joins it.
      call.relay = request.relay;
      return this.remakeRoom(call, { keep: true, after: () => this.answerHeldResume(partner.userId, matchId) });
    }
    await this.answerHeldResume(partner.userId, matchId);
  }

  /** The partner's page asked to resume this call before any gateway told of it: it resumes now. */
  private async answerHeldResume(userId: string, matchId: string) {
    const held = this.heldResumes.get(userId);
    if (held?.matchId !== matchId) return;
    this.withdrawResume(userId);
    await this.resume(userId, held.socketId, matchId, held.fresh, held.node);
  }

  /** Forgets a held resume of `userId` (from `socketId` only, when given): the page left, lost its socket, or moved on. */
  private withdrawResume(userId: string, socketId?: string): HeldResume | undefined {
    const held = this.heldResumes.get(userId);
    if (!held || (socketId !== undefined && held.socketId !== socketId)) return undefined;
    clearTimeout(held.timer);
    this.releaseTimers.delete(held.timer);
    this.heldResumes.delete(userId);
    return held;
  }

  /**
   * A user left a call not known here while the gateways are telling this new leader of the calls in progress: told of
   * later, it ends as they ended it, rather than waiting for them to come back.
   */
  private leftUnknownCall(matchId: string | undefined, userId: string, reason: MatchEndReason) {
    if (matchId && this.ports.now() < this.adoptingUntil) this.leftWhileAdopting.set(matchId, { userId, reason });
  }

  /**
   * A gateway node died without a word: its searches end (the pages search again from another node), and each call side
   * it held is away for the grace period, as after any lost socket; the partner hears 'Reconnecting...'.
   */
  private async nodeLost(node: string) {
    for (const [userId, waiting] of [...this.waiting]) {
      if (waiting.node !== node) continue;
      this.waiting.delete(userId);
      this.ports.matchmaker.leave(userId);
    }
    for (const [userId, held] of [...this.heldResumes]) if (held.node === node) this.withdrawResume(userId);
    for (const call of [...this.calls.values()]) {
      for (const side of call.sides) {
        if (side.node === node && side.socketId !== null) {
          await this.dispatch({ kind: 'socket-lost', userId: side.userId, socketId: side.socketId });
        }
      }
    }
  }

  private async rtcConnected(userId: string, socketId: string, matchId: string) {
    const call = this.calls.get(matchId);
    const side = call?.sides.find((s) => s.userId === userId && s.socketId === socketId);
    if (!call || !side || side.rtcConnected) return;
    side.rtcConnected = true;
    if (call.sides.every((s) => s.rtcConnected)) {
      await Promise.all(call.sides.map((s) => this.ports.deliver(s.userId, { kind: 'fully-connected', matchId })));
    }
  }

  /**
   * auto mode: a side whose peer connection did not come up asks for the SFU. The call moves there for
   * both sides; if it cannot, the call is over as a connection that never came up, and both search again.
   */
  private async fallback(userId: string, socketId: string, matchId: string): Promise<Later | void> {
    const call = this.liveCallOf(userId, socketId, matchId);
    if (!call || call.relay || this.ports.media.mode !== 'auto' || !this.ports.media.relayAvailable()) return;
    return this.moveToSfu(call, 'p2p-failed', async (error) => {
      this.ports.onError(error, 'moving a call to the SFU');
      await this.end(call, null, 'timeout');
    });
  }

  /**
   * A side opened the Report dialog: a peer-to-peer call moves to the SFU, so that the server's own snapshot of the
   * reported side can be taken (DESIGN.md "Matching"). Only where calls may relay at all ('p2p' mode never does) and
   * an SFU can take it; if none can, the call simply goes on as it was.
   */
  private async reportOpened(userId: string, socketId: string, matchId: string): Promise<Later | void> {
    const call = this.liveCallOf(userId, socketId, matchId);
    if (!call || call.relay || this.ports.media.mode === 'p2p' || !this.ports.media.relayAvailable()) return;
    return this.moveToSfu(call, 'report', async (error) => this.ports.onError(error, 'relaying a reported call'));
  }

  /** The call whose side `userId` is on `socketId` now, if it is `matchId`. */
  private liveCallOf(userId: string, socketId: string, matchId: string): Call | undefined {
    const call = this.calls.get(matchId);
    return call?.sides.some((s) => s.userId === userId && s.socketId === socketId) ? call : undefined;
  }

  /** Moves a call to a new SFU room for both sides; `failed` says what becomes of it when no room can be made. */
  private moveToSfu(call: Call, reason: RelayReason, failed: (error: unknown) => Promise<void>): Later {
    const { matchId } = call;
    return this.openRoomOffLoop(matchId, userIdsOf(call), async (room) => {
      // The call ended meanwhile (a grace period ran out): its new room has nobody to carry.
      if (this.calls.get(matchId) !== call) return room.ok ? this.closeRoom(matchId, room.value) : undefined;
      if (!room.ok) return failed(room.error);
      call.relay = { sfuNode: room.value, reason };
      await this.recordRelay(matchId, call.relay);
      await this.tellMediaPath(call, 'media:path');
    });
  }

  /**
   * spec 3 "Ban": the banned user's search or call ends at once (their sockets are closed by every gateway holding
   * one); the partner hears why and searches again, as after any partner leaving.
   */
  private async banned(userId: string) {
    this.withdrawResume(userId);
    if (this.waiting.delete(userId)) this.ports.matchmaker.leave(userId);
    const call = this.callFor(userId);
    if (call) await this.end(call, userId, 'ban');
    else if (this.ports.now() < this.adoptingUntil) this.bannedWhileAdopting.add(userId);
  }

  /** The SFU lost the room (its worker died): a new one, and both sides join it again. */
  private async roomLost(matchId: string, sfuNode: string): Promise<Later | void> {
    const call = this.calls.get(matchId);
    // A late or repeated report about a room the call has already left is no news.
    if (call?.relay?.sfuNode !== sfuNode) return;
    return this.remakeRoom(call);
  }

  /**
   * A relayed call's room is made again, and both sides join it (`media:reconnect`); then `after` runs, in the loop.
   * `keep`: the room may still stand on its node, which is asked first and gives it back.
   */
  private remakeRoom(call: Call, options: { keep?: boolean; after?: () => Promise<void> } = {}): Later {
    const { matchId } = call;
    const lost = call.relay!;
    return this.openRoomOffLoop(
      matchId,
      userIdsOf(call),
      async (room) => {
        if (this.calls.get(matchId) !== call) return room.ok ? this.closeRoom(matchId, room.value) : undefined;
        if (!room.ok) {
          this.ports.onError(room.error, 'reopening a relayed call');
          await this.end(call, null, 'disconnect');
          return;
        }
        call.relay = { ...lost, sfuNode: room.value };
        // Made on another node: the old room, if its node still runs, holds ports for nobody. (On the same node, the
        // SFU gave back the room it still had.)
        if (room.value !== lost.sfuNode) void this.closeRoom(matchId, lost.sfuNode);
        await this.recordRelay(matchId, call.relay);
        await this.tellMediaPath(call, 'media:reconnect');
        await options.after?.();
      },
      options.keep ? lost.sfuNode : undefined,
    );
  }

  private async tellMediaPath(call: Call, event: 'media:path' | 'media:reconnect') {
    const { sfuNode, reason } = call.relay!;
    await Promise.all(
      call.sides.map((s) =>
        this.ports.deliver(s.userId, { kind: 'media-path', matchId: call.matchId, sfuNode, event, reason }),
      ),
    );
  }

  private async recordRelay(matchId: string, relay: NonNullable<Call['relay']>) {
    try {
      await this.ports.record({ type: 'Relay', matchId, reason: relay.reason, sfuNode: relay.sfuNode });
    } catch (error) {
      this.ports.onError(error, 'recording a relayed call');
    }
  }

  private async closeRoom(matchId: string, sfuNode: string) {
    try {
      await this.ports.media.closeRoom(matchId, sfuNode);
    } catch (error) {
      this.ports.onError(error, "closing a call's SFU room");
    }
  }

  /**
   * Ends a call: recorded first, then the other side is told. `by` chose to end it (null: nobody did);
   * `lost` is the side whose connection was lost, when that is the reason.
   */
  private async end(call: Call, by: string | null, reason: MatchEndReason, lost?: string) {
    this.calls.delete(call.matchId);
    this.ended.add(call.matchId);
    if (this.ended.size > REMEMBERED_ENDINGS) this.ended.delete(this.ended.values().next().value!);
    // Skip and leave close the router; the SFU frees the call's ports and workers' load.
    if (call.relay) void this.closeRoom(call.matchId, call.relay.sfuNode);
    for (const side of call.sides) {
      clearTimeout(side.graceTimer);
      if (this.callOf.get(side.userId) === call.matchId) this.callOf.delete(side.userId);
    }
    try {
      await this.ports.record({ type: 'End', matchId: call.matchId, endedBy: by, reason });
    } catch (error) {
      // The call is over whatever the log says: the partner must still hear it.
      this.ports.onError(error, 'recording the end of a call');
    }
    const leaver = by ?? lost;
    const [a, b] = call.sides;
    if (reason === 'skip' && by) this.ports.matchmaker.avoid(a.userId, b.userId, this.ports.now() + SKIP_COOLDOWN_MS);
    const told = call.sides.filter((s) => s.userId !== leaver && s.socketId !== null);
    const partnerReason: PartnerLeftReason = reason === 'timeout' ? 'disconnect' : reason;
    await Promise.all(
      told.map((s) =>
        this.ports.deliver(s.userId, { kind: 'partner-left', matchId: call.matchId, reason: partnerReason }),
      ),
    );
  }

  /**
   * Tells the other side of the call (if its socket is there) that this side's socket dropped or came back;
   * `mediaRestart` when it came back on a new page.
   */
  private async tellPartner(
    call: Call,
    side: Side,
    kind: 'partner-reconnecting' | 'partner-reconnected',
    mediaRestart = false,
  ) {
    const partner = this.partnerOf(call, side);
    if (partner.socketId === null) return;
    await this.ports.deliver(partner.userId, {
      kind,
      matchId: call.matchId,
      ...(mediaRestart ? { mediaRestart } : {}),
    });
  }

  private partnerOf(call: Call, side: Side): Side {
    return call.sides.find((s) => s !== side)!;
  }

  private sendMatch(call: Call, side: Side, event: 'matchFound' | 'matchResumed'): Promise<void> {
    const partner = call.sides.find((s) => s !== side)!;
    const own = side.socketId!;
    const match: MatchFound = {
      matchId: call.matchId,
      // Strangers learn no lasting id of each other: a user id would link their calls and name their account.
      partnerId: partner.alias,
      partnerUser: { ...partner.public, _id: partner.alias, socketId: partner.alias },
      role: call.offererId === side.userId ? 'offerer' : 'answerer',
      iceServers: this.ports.iceServers(side.userId),
      media: call.relay ? 'relay' : 'p2p',
      relayFallback: !call.relay && this.ports.media.mode === 'auto' && this.ports.media.relayAvailable(),
      sharedInterests: side.sharedInterests,
    };
    return this.ports.deliver(side.userId, {
      kind: 'match',
      socketId: own,
      event,
      match,
      partnerUserId: partner.userId,
      ...(call.relay ? { sfuNode: call.relay.sfuNode, relayReason: call.relay.reason } : {}),
    });
  }

  private callFor(userId: string): Call | undefined {
    const matchId = this.callOf.get(userId);
    return matchId ? this.calls.get(matchId) : undefined;
  }

  private sideOf(call: Call, userId: string): Side {
    return call.sides.find((s) => s.userId === userId)!;
  }

  private sideIn(userId: string): Side | undefined {
    const call = this.callFor(userId);
    return call && this.sideOf(call, userId);
  }
}

function userIdsOf(call: Call): readonly [string, string] {
  return [call.sides[0].userId, call.sides[1].userId];
}

/** The shared interests in the order this side listed them. */
function inOrderOf(filters: MatchFilters, shared: readonly string[]): string[] {
  return (filters.interests ?? []).filter((tag) => shared.includes(tag));
}

function seeker(userId: string, profile: SeekerProfile, filters: MatchFilters): Seeker {
  return { userId, gender: profile.gender, age: profile.age, country: profile.country, filters };
}
