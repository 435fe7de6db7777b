export * from './fake-kube-api-server.js';
export { KubeStatusError, type KubeObject } from './object-store.js';
export { loadCrdFile } from './crd-file.js';
