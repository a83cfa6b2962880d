export * from './http/api.js';
export * from './http/health.js';
export * from './socket/system.js';
