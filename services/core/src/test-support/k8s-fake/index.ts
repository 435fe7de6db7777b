export * from './fake-kube-api-server.js';
export { KubeStatusError, type KubeObject } from './object-store.js';
export { loadCrdFile, loadExampleFile } from './crd-file.js';
