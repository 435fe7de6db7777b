export * from './dispatcher-role.js';
