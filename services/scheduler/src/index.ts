export * from './scheduler-role.js';
