// metav1.ObjectMeta's fields, for the strict field check of a StatefulSet's metadata and of the pod and
// claim templates' metadata (the API server's own ObjectMeta validation is in validation/metadata.ts).

import { int64, list, obj, str, stringMap, bool, type Schema } from './schema-dsl.js';

const ownerReference = obj(
  'An object this one depends on.',
  {
    apiVersion: str('API version of the owner.'),
    kind: str('Kind of the owner.'),
    name: str('Name of the owner.'),
    uid: str('UID of the owner.'),
    controller: bool('The owner is the managing controller.'),
    blockOwnerDeletion: bool('Foreground deletion of the owner waits for this object.'),
  },
  { required: ['apiVersion', 'kind', 'name', 'uid'] },
);

const managedFieldsEntry = obj('A field manager and the fields it owns (server-side apply).', {
  manager: str('Name of the manager.'),
  operation: str('Apply or Update.'),
  apiVersion: str('API version of the fields.'),
  time: str('When the entry was last changed.', { format: 'date-time' }),
  fieldsType: str('Format of fieldsV1: FieldsV1.'),
  fieldsV1: { type: 'object', description: 'The owned fields (a field set).', 'x-kubernetes-preserve-unknown-fields': true },
  subresource: str('The subresource written, if any.'),
});

export const objectMetaSchema: Schema = obj('Standard object metadata (metav1.ObjectMeta).', {
  name: str('Name, unique within the namespace.'),
  generateName: str('Prefix for a server-generated name.'),
  namespace: str('Namespace of the object.'),
  selfLink: str('Deprecated; not set by the server.'),
  uid: str('Server-assigned unique id.'),
  resourceVersion: str('Opaque version for optimistic concurrency.'),
  generation: int64('Sequence number of spec changes.'),
  creationTimestamp: str('When the object was created.', { format: 'date-time' }),
  deletionTimestamp: str('When the object will be deleted.', { format: 'date-time' }),
  deletionGracePeriodSeconds: int64('Grace period of a pending deletion.'),
  labels: stringMap('Labels.'),
  annotations: stringMap('Annotations.'),
  ownerReferences: list('Owners of the object.', ownerReference, { 'x-kubernetes-list-type': 'map', 'x-kubernetes-list-map-keys': ['uid'] }),
  finalizers: list('Finalizers that must finish before deletion.', { type: 'string' }, { 'x-kubernetes-list-type': 'set' }),
  managedFields: list('Field ownership (server-side apply).', managedFieldsEntry, { 'x-kubernetes-list-type': 'atomic' }),
});
