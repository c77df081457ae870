// What the spec rules need to know besides the object: gates, API version, create vs update.

import type { Features } from '../features.js';

export interface SpecContext {
  features: Features;
  /** `apiVersion: apps.ordinal.dev/v1`: Ordinal's extension fields are allowed. */
  ordinal: boolean;
  /** Create-only rules: serviceName syntax and volumeClaimTemplates. */
  create: boolean;
  /** On update, the stored object's strategy type (gate transition rules: staying on a gated type is allowed). */
  prevType?: string;
  /** Run the pod-template subset (always on create; on update only if the stored template passed it). */
  podTemplate: boolean;
}

/** The message for a field that exists only in apps.ordinal.dev/v1. */
export const EXTENSION_ONLY = 'is an Ordinal extension: use `apiVersion: apps.ordinal.dev/v1` to set it';
