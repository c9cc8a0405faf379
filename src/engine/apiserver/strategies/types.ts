/**
 * Per-resource REST strategies (kube-apiserver's pkg/registry/<group>/<resource>/strategy.go):
 * what the registry does to an object on its way into storage, beyond validation.
 */
import type { Clock } from '../../clock';
import type { Random } from '../../random';
import type { KubeObject } from '../../api/types';
import type { ObjectReader } from '../storage/reader';
import type { KindValidator } from '../validation/registry';

export interface StrategyContext {
  readonly clock: Clock;
  readonly random: Random;
  readonly reader: ObjectReader;
  readonly dryRun: boolean;
}

export interface Transaction {
  commit(): void;
  revert(): void;
}

export const NO_TRANSACTION: Transaction = { commit: () => undefined, revert: () => undefined };

export interface Strategy {
  /** metadata.generation is 1 on create and is bumped when anything but metadata and status changes. */
  readonly generation: boolean;
  /** PUT on a missing object creates it (Lease, Node-less cases are false; events and leases true). */
  readonly allowCreateOnUpdate: boolean;
  /** An update without metadata.resourceVersion overwrites the current object. */
  readonly allowUnconditionalUpdate: boolean;
  /** DELETE answers with the object instead of a Status (pods, services, namespaces, ...). */
  readonly returnDeletedObject: boolean;
  /** Whether DELETE honours propagation policies (orphan and foregroundDeletion finalizers). */
  readonly garbageCollected: boolean;
  /** Clears what clients may not set on create (status for most kinds) and sets server fields. */
  prepareForCreate(obj: KubeObject, ctx: StrategyContext): void;
  /** Keeps what an update of the main resource may not change (status for most kinds). */
  prepareForUpdate(obj: KubeObject, old: KubeObject): void;
  /**
   * Side effects before the write that can fail the request (ClusterIP and NodePort allocation);
   * the pipeline commits them once the object is stored and reverts them otherwise.
   */
  beginCreate?(obj: KubeObject, ctx: StrategyContext): Transaction;
  beginUpdate?(obj: KubeObject, old: KubeObject, ctx: StrategyContext): Transaction;
  /** After the object is gone from storage: releases what beginCreate took. */
  afterDelete?(obj: KubeObject): void;
  /**
   * Graceful deletion (CheckGracefulDelete): the grace period in seconds this deletion gets,
   * given the requested one; undefined for kinds that are deleted at once.
   */
  gracePeriod?(obj: KubeObject, requested: number | undefined): number;
  /** WarningsOnCreate: warnings for a valid new object (after validation). */
  warningsOnCreate?(obj: KubeObject): string[];
  /** WarningsOnUpdate: warnings for a valid update of the main resource (not its subresources). */
  warningsOnUpdate?(obj: KubeObject, old: KubeObject): string[];
  /** Whether an update completes a pending deletion; default: no finalizers left and no grace period. */
  shouldDeleteDuringUpdate?(obj: KubeObject, old: KubeObject): boolean;
  /** Field rules of kinds registered at run time (custom resources); else the kind's registered validator. */
  readonly validator?: KindValidator;
  /** The status subresource's PrepareForUpdate, where it differs from the generic one (custom resources). */
  prepareStatusUpdate?(obj: KubeObject, old: KubeObject): KubeObject;
}
