export { startSfu, type RunningSfu, type SfuHealth, type SfuOptions } from './sfu-service.js';
export { natsRpcPort } from './nats-rpc.js';
export type { Room, RoomCounts } from './media/room.js';
