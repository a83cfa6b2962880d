import type { IceServer } from '@serendip/proto';
import { MATCH_TIMING } from '@serendip/proto';
import type { MediaToggles } from './media-preferences';
import { RelayCall, type RelaySignalling } from './relay-call';

export type MediaEvent =
  | { type: 'ice-candidate'; candidate: RTCIceCandidateInit }
  | { type: 'connection-state'; state: RTCPeerConnectionState }
  | { type: 'speaking'; speaking: boolean };

type Description = { type: 'offer' | 'answer'; sdp: string };

/**
 * The camera, the microphone and the call's media of one user (STYLE.md rule 7: media objects live here, never in
 * Redux). The saga drives it; components read its streams. A call goes peer to peer (`openPeer` and the offer and
 * answer) or through the SFU (`joinRelay`); either way the partner's tracks land in the `remote` stream and
 * its state comes as `connection-state`. One call at a time: a new one closes the last one, and the local stream
 * outlives calls (spec 4: a skip keeps the local stream).
 */
export interface MediaSession {
  start(toggles: MediaToggles): Promise<'granted' | 'denied' | 'failed'>;
  setMic(on: boolean): void;
  setCamera(on: boolean): void;
  /** Releases the camera and the microphone (leaving matching). */
  stop(): void;
  openPeer(iceServers: IceServer[]): void;
  createOffer(): Promise<Description>;
  acceptOffer(offer: Description): Promise<Description>;
  acceptAnswer(answer: Description): Promise<void>;
  addRemoteCandidate(candidate: RTCIceCandidateInit): Promise<void>;
  /**
   * Closes any open call and sends and receives through the SFU instead. Resolves once our tracks are produced;
   * rejects when the server refuses (the saga then treats the call as failed).
   */
  joinRelay(signal: RelaySignalling): Promise<void>;
  /** A partner track on the SFU (`media:producer`): received once the relay is ready; a repeat is ignored. */
  addRelayProducer(producerId: string): void;
  /** Whether the call's media go through the SFU now (a relay was joined and not closed since). */
  onRelay(): boolean;
  /** Closes the call's media, whichever way it goes. */
  closePeer(): void;
  subscribe(listener: (event: MediaEvent) => void): () => void;
  /** For the views: the streams now, and a call whenever they change. */
  streams(): { local: MediaStream | null; remote: MediaStream | null };
  onStreams(listener: () => void): () => void;
  /** The microphone's mean level now, 0..255 (the meter and spec 9's speaking threshold). */
  micLevel(): number;
}

export class BrowserMediaSession implements MediaSession {
  private local: MediaStream | null = null;
  private remote: MediaStream | null = null;
  private peer: RTCPeerConnection | null = null;
  private relay: RelayCall | null = null;
  /** Candidates that came before the remote description; added once it is set. */
  private pendingCandidates: RTCIceCandidateInit[] = [];
  private readonly listeners = new Set<(event: MediaEvent) => void>();
  private readonly streamListeners = new Set<() => void>();
  private audio: { context: AudioContext; analyser: AnalyserNode; data: Uint8Array<ArrayBuffer> } | null = null;
  private speakingTimer: ReturnType<typeof setInterval> | undefined;
  private speaking = false;

  async start(toggles: MediaToggles) {
    if (this.local) {
      this.setMic(toggles.mic);
      this.setCamera(toggles.camera);
      return 'granted' as const;
    }
    try {
      this.local = await navigator.mediaDevices.getUserMedia({ video: true, audio: true });
    } catch (error) {
      const name = (error as DOMException).name;
      return name === 'NotAllowedError' || name === 'SecurityError' ? ('denied' as const) : ('failed' as const);
    }
    this.setMic(toggles.mic);
    this.setCamera(toggles.camera);
    this.listenToMic();
    this.changed();
    return 'granted' as const;
  }

  setMic(on: boolean) {
    this.local?.getAudioTracks().forEach((t) => (t.enabled = on));
  }

  setCamera(on: boolean) {
    this.local?.getVideoTracks().forEach((t) => (t.enabled = on));
  }

  stop() {
    this.closePeer();
    clearInterval(this.speakingTimer);
    void this.audio?.context.close().catch(() => undefined);
    this.audio = null;
    this.local?.getTracks().forEach((t) => t.stop());
    this.local = null;
    this.changed();
  }

  openPeer(iceServers: IceServer[]) {
    this.closePeer();
    const peer = new RTCPeerConnection({ iceServers });
    this.peer = peer;
    this.remote = new MediaStream();
    this.local?.getTracks().forEach((track) => peer.addTrack(track, this.local!));
    peer.onicecandidate = ({ candidate }) => {
      if (candidate && this.peer === peer) this.emit({ type: 'ice-candidate', candidate: candidate.toJSON() });
    };
    peer.onconnectionstatechange = () => {
      if (this.peer === peer) this.emit({ type: 'connection-state', state: peer.connectionState });
    };
    peer.ontrack = ({ track }) => {
      if (this.peer !== peer || !this.remote) return;
      this.remote.addTrack(track);
      this.changed();
    };
    this.changed();
  }

  async createOffer(): Promise<Description> {
    const peer = this.requirePeer();
    const offer = await peer.createOffer();
    await peer.setLocalDescription(offer);
    return { type: 'offer', sdp: offer.sdp ?? '' };
  }

  async acceptOffer(offer: Description): Promise<Description> {
    const peer = this.requirePeer();
    await peer.setRemoteDescription(offer);
    await this.flushCandidates(peer);
    const answer = await peer.createAnswer();
    await peer.setLocalDescription(answer);
    return { type: 'answer', sdp: answer.sdp ?? '' };
  }

  async acceptAnswer(answer: Description) {
    const peer = this.requirePeer();
    await peer.setRemoteDescription(answer);
    await this.flushCandidates(peer);
  }

  async addRemoteCandidate(candidate: RTCIceCandidateInit) {
    const peer = this.peer;
    if (!peer) return;
    // NOTE: ICE can outrun the offer/answer over the socket; a candidate before the remote description waits.
    if (!peer.remoteDescription) this.pendingCandidates.push(candidate);
    else await peer.addIceCandidate(candidate);
  }

  async joinRelay(signal: RelaySignalling) {
    this.closePeer();
    const relay = new RelayCall(signal, {
      connectionState: (state) => {
        if (this.relay === relay) this.emit({ type: 'connection-state', state });
      },
      track: (track) => {
        if (this.relay !== relay || !this.remote) return;
        // One track of each kind: a partner back on a new page (a reload) sends new ones, and the old one's producer
        // is gone. A new stream object, so the views play it afresh.
        const kept = this.remote.getTracks().filter((t) => t.kind !== track.kind);
        this.remote = new MediaStream([...kept, track]);
        this.changed();
      },
    });
    this.relay = relay;
    this.remote = new MediaStream();
    this.changed();
    // Toggles keep working: the producers send these very tracks, so track.enabled is all a toggle needs.
    await relay.join(this.local?.getTracks() ?? []);
  }

  addRelayProducer(producerId: string) {
    this.relay?.addProducer(producerId);
  }

  onRelay(): boolean {
    return this.relay !== null;
  }

  closePeer() {
    this.relay?.close();
    this.relay = null;
    const peer = this.peer;
    this.peer = null;
    this.pendingCandidates = [];
    this.remote?.getTracks().forEach((t) => t.stop());
    this.remote = null;
    if (peer) {
      peer.onicecandidate = null;
      peer.onconnectionstatechange = null;
      peer.ontrack = null;
      peer.close();
    }
    this.changed();
  }

  subscribe(listener: (event: MediaEvent) => void) {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  streams() {
    return { local: this.local, remote: this.remote };
  }

  onStreams(listener: () => void) {
    this.streamListeners.add(listener);
    return () => this.streamListeners.delete(listener);
  }

  micLevel(): number {
    if (!this.audio || !this.local?.getAudioTracks().some((t) => t.enabled)) return 0;
    const { analyser, data } = this.audio;
    analyser.getByteFrequencyData(data);
    let sum = 0;
    for (const value of data) sum += value;
    return sum / data.length;
  }

  private listenToMic() {
    const track = this.local?.getAudioTracks()[0];
    if (!track || typeof AudioContext === 'undefined') return;
    const context = new AudioContext();
    const analyser = context.createAnalyser();
    analyser.fftSize = 256;
    context.createMediaStreamSource(new MediaStream([track])).connect(analyser);
    this.audio = { context, analyser, data: new Uint8Array(analyser.frequencyBinCount) };
    // spec 9: speaking while the mean audio level exceeds 20; told only when it changes.
    this.speakingTimer = setInterval(() => {
      const speaking = this.micLevel() > MATCH_TIMING.speakingLevel;
      if (speaking === this.speaking) return;
      this.speaking = speaking;
      this.emit({ type: 'speaking', speaking });
    }, 250);
  }

  private async flushCandidates(peer: RTCPeerConnection) {
    const pending = this.pendingCandidates.splice(0);
    for (const candidate of pending) await peer.addIceCandidate(candidate).catch(() => undefined);
  }

  private requirePeer(): RTCPeerConnection {
    if (!this.peer) throw new Error('no call is open');
    return this.peer;
  }

  private emit(event: MediaEvent) {
    this.listeners.forEach((l) => l(event));
  }

  private changed() {
    this.streamListeners.forEach((l) => l());
  }
}
