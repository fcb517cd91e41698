// Field classes of the share-link format (see field-class.ts). Filled in by the share-link reader's owner.
import type { FieldTable } from './field-class.ts';

export const SHARE_LINK_FIELDS: FieldTable = {};
