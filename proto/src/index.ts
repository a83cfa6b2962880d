export * from './http/api.js';
export * from './http/health.js';
export * from './socket/system.js';
export * from './events/integration-event.js';
export * from './events/ops.js';
export * from './http/auth.js';
export * from './http/public-config.js';
export * from './http/account.js';
