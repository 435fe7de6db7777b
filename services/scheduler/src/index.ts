export * from './scheduler-role.js';
export * from './scheduler-parts.js';
