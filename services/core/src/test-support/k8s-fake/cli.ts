/**
 * `npm run dev:k8s`: a fake Kubernetes API server to try the operator locally. Registers the
 * MediaStatsServer CRD, writes a kubeconfig, and optionally creates a MediaStatsServer and its Secret for a
 * media server (e.g. the simulator from `npm run sim`):
 *   npm run dev:k8s -- --port 6443 --server-url http://127.0.0.1:8096 --api-key <key>
 * Then, in another shell: KUBECONFIG=<printed path> ROLES=api,scheduler,operator npm start
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { loadCrdFile } from './crd-file.js';
import { FakeKubeApiServer } from './fake-kube-api-server.js';

const { values } = parseArgs({
  options: {
    port: { type: 'string', default: '6443' },
    namespace: { type: 'string', default: 'reelstat' },
    kubeconfig: { type: 'string', default: path.resolve('data/dev-k8s/kubeconfig') },
    'server-url': { type: 'string' },
    'api-key': { type: 'string' },
  },
});

const server = new FakeKubeApiServer({ token: 'dev-token' });
await server.start(Number(values.port));
server.applyCrd(loadCrdFile());
mkdirSync(path.dirname(values.kubeconfig), { recursive: true });
writeFileSync(values.kubeconfig, server.kubeconfig(values.namespace), { mode: 0o600 });
if (values['server-url'] && values['api-key']) {
  server.create('v1', 'secrets', values.namespace, { metadata: { name: 'media-server' }, stringData: { apiKey: values['api-key'] } });
  server.create('reelstat.io/v1alpha1', 'mediastatsservers', values.namespace, {
    metadata: { name: 'media-server' },
    spec: { url: values['server-url'], apiKeySecretRef: { name: 'media-server', key: 'apiKey' } },
  });
}
console.log(`fake Kubernetes API server on ${server.url} (namespace ${values.namespace})`);
console.log(`KUBECONFIG=${values.kubeconfig}`);
let shown = 0;
setInterval(() => {
  for (const entry of server.requests.slice(shown)) console.log(`${entry.method} ${entry.path} → ${entry.status}`);
  shown = server.requests.length;
}, 1000);
const stop = () => void server.stop().then(() => process.exit(0));
process.on('SIGINT', stop);
process.on('SIGTERM', stop);
