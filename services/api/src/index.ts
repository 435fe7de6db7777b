export * from './roles/api-role.js';
