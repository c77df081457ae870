// The real-cluster adapter: `createKubeClient` implements the ClusterClient port on
// the kubeconfig (./kubeconfig.ts: auth, TLS) with our own REST calls and resilient watches.

export { createKubeClient, DEFAULT_TUNING, type KubeClient, type KubeClientOptions, type KubeClientTuning, type KubeLogger } from './kube-client.js';
export { loadKubeConfig, type KubeConfig } from './kubeconfig.js';
export { TransportError } from './transport.js';
