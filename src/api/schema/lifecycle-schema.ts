// The CRD schema of spec.lifecycle (validation/lifecycle.ts checks it the same way on the strict path).

import { HOOK_FAILURE_POLICIES } from '../types.js';
import { AT_LEAST_ONE_SECOND, MAX_HANDLER_LABELS, ONE_HANDLER, OWN_LABEL } from '../validation/lifecycle.js';
import { HTTP_STATUS_MESSAGE, HTTP_URL_MESSAGE } from '../validation/rollout-steps.js';
import { int32, obj, rules, str, type Schema } from './schema-dsl.js';

const seconds = (description: string): Schema => rules(int32(description), { rule: 'self >= 1', message: AT_LEAST_ONE_SECOND });

const http = obj(
  'A GET of url with ?pod=NAME&revision=REV, made by the controller and repeated every 5s until it answers expectedStatus.',
  {
    url: rules(str('An http:// or https:// URL.', { maxLength: 2048 }), {
      rule: "(self.startsWith('http://') || self.startsWith('https://')) && isURL(self) && url(self).getHostname() != ''",
      message: HTTP_URL_MESSAGE,
    }),
    expectedStatus: rules(int32('The status code that passes the hook (default 200).'), { rule: 'self >= 100 && self <= 599', message: HTTP_STATUS_MESSAGE }),
    timeoutSeconds: seconds('Per request (default 5).'),
  },
  { required: ['url'] },
);

const labelsHandler: Schema = rules(
  {
    type: 'object',
    description: 'The controller labels the pod apps.ordinal.dev/lifecycle-state=PreparingUpdate and waits until something else (the database\'s own agent) sets every KEY=VALUE on it.',
    additionalProperties: { type: 'string', maxLength: 63 },
    minProperties: 1,
    maxProperties: MAX_HANDLER_LABELS,
  },
  { rule: "!('apps.ordinal.dev/lifecycle-state' in self)", message: OWN_LABEL },
);

const preUpdate = rules(
  obj(
    'Before the controller disrupts a pod for an update (a deletion, an in-place restart, a claim restart): called once per pod per update revision; its result is kept in the pod annotation apps.ordinal.dev/pre-update-hook.',
    {
      http,
      labelsHandler,
      timeoutSeconds: seconds('How long the hook may take before failurePolicy applies (default 300).'),
      failurePolicy: str('Fail (default): the pod stays held and the rollout stalls into its progress deadline; Ignore: the pod goes on.', { enum: [...HOOK_FAILURE_POLICIES] }),
    },
  ),
  { rule: 'has(self.http) != has(self.labelsHandler)', message: ONE_HANDLER },
);

export const lifecycleSchema: Schema = obj('Ordinal extension: what must happen before the controller disrupts a pod.', { preUpdate });
