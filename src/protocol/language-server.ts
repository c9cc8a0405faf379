/**
 * The messages between the extension and the language server beyond LSP itself. The server
 * validates against a mirror of the live cluster; the extension keeps that mirror current by
 * forwarding the cluster's watch stream, and tells the server whose credentials to validate with.
 */
import type { JsonObject } from '../engine/api/types';

/** One change of one object, as a watch delivers it. */
export interface MirrorEvent {
  type: 'ADDED' | 'MODIFIED' | 'DELETED';
  /** The object as the live API server returned it (apiVersion and kind set). */
  object: JsonObject;
}

/** Notification `kubesim/mirrorSync`, extension -> server. */
export const MIRROR_SYNC = 'kubesim/mirrorSync';

export interface MirrorSyncParams {
  /**
   * True for a full listing (on start, after a reset or a relist): objects the mirror holds that
   * the listing lacks are removed, as an informer's Replace does. The events are then all ADDED.
   */
  replace?: boolean;
  events: MirrorEvent[];
}

/** Notification `kubesim/setUser`, extension -> server: the identity validation runs as. */
export const SET_USER = 'kubesim/setUser';

export interface SetUserParams {
  username: string;
  groups: string[];
  uid?: string;
}

/** Notification `kubesim/setApplyOptions`, extension -> server: how Apply sends documents (diagnostics send the same). */
export const SET_APPLY_OPTIONS = 'kubesim/setApplyOptions';

export interface SetApplyOptionsParams {
  /** The kubesim.fieldValidation setting. */
  fieldValidation: 'Strict' | 'Warn' | 'Ignore';
}

/** Request `kubesim/mirrorState`, extension -> server: what the mirror holds (for status and tests). */
export const MIRROR_STATE = 'kubesim/mirrorState';

export interface MirrorStateResult {
  /** Mirror events applied since the server started. */
  applied: number;
  /** Events the mirror's API server refused, with its message (the live cluster accepted them). */
  rejected: Array<{ key: string; message: string }>;
}
