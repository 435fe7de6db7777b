export * from './common.js';
export * from './auth.js';
export * from './settings.js';
export * from './api-keys.js';
export * from './stats.js';
export * from './history.js';
export * from './library.js';
export * from './utils.js';
