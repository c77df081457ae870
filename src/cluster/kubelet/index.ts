// The simulated kubelet (see kubelet.ts): public entry points.

export { BINDINGS, createKubelet, type Kubelet, type KubeletOptions } from './kubelet.js';
export { imageBehavior, terminationDelayMs, type ImageBehavior, type ImageBehaviorName, type KubeletConfig } from './config.js';
export { crashBackoffMs } from './container-model.js';
export { placePod, ZONE_LABEL, type SimNode } from './placement.js';
export type { PodLifecycleEvent, PodLifecycleListener, PodLifecycleType } from './lifecycle.js';
