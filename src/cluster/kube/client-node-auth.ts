// Credentials only @kubernetes/client-node knows how to get: exec plugins, auth-providers (oidc, …) and
// proxy-url agents. Imported dynamically by ./connection.ts for the kubeconfigs that need it, so every other
// process never loads client-node (see ./kubeconfig.ts).

import { KubeConfig as ClientNodeKubeConfig } from '@kubernetes/client-node';
import type { RequestOptions } from 'node:https';
import type { KubeConfig } from './kubeconfig.js';

export type Authenticate = (opts: RequestOptions) => Promise<void>;

/** client-node's KubeConfig for the same context; tokens and exec output are refreshed by it on each call. */
export function clientNodeAuthenticator(kc: KubeConfig): Authenticate {
  const cn = new ClientNodeKubeConfig();
  cn.loadFromOptions({ ...kc.data, currentContext: kc.context.name });
  return (opts) => cn.applyToHTTPSOptions(opts);
}
