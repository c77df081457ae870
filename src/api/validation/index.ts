// StatefulSet validation: the entry points other layers call, and the message helpers.

export { validateStatefulSet } from './statefulset.js';
export { validateStatefulSetUpdate, IMMUTABLE_SPEC_FIELDS } from './update.js';
export { validateStatefulSetStatusUpdate } from './status.js';
export { formatInvalid, formatIssue, validationError, IssueList, MAX_ISSUES } from './field.js';
export { isDNS1123Label, isDNS1123Subdomain, isQualifiedName, isValidLabelValue, isValidPercent } from './names.js';
export { RECREATE_GATED } from './update-strategy.js';
export { checkKnownFields, knownFieldsSchema, strictDecodingMessage, unknownFields } from './unknown-fields.js';
export { ENFORCED_GATED, BATCH_START_POLICIES } from './extensions.js';
export { EXTENSION_ONLY } from './context.js';
