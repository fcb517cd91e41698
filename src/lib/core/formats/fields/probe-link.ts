// Field classes of the probe-link format (see field-class.ts). Filled in by the probe-link reader's owner.
import type { FieldTable } from './field-class.ts';

export const PROBE_LINK_FIELDS: FieldTable = {};
