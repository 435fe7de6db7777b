// `@reelstat/core/kubernetes`: what needs the Kubernetes client (@kubernetes/client-node). Kept out of the
// package's main entry so that a process outside Kubernetes never loads the client (about 75 MB resident):
// the runtime and the operator import this only once Kubernetes credentials are known to exist.
export * from './kube-config.js';
export * from '../leader/kubernetes-lease-leader.js';
