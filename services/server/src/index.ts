export * from './start-process.js';
