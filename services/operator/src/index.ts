export * from './operator-role.js';
