export * from './process/start-process.js';
