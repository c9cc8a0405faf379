/** The restricted volume check: only ephemeral, projected-style and claim-backed volume sources. */
import { joinQuote, listAt, pluralize, sortedSet, stringAt } from '../pod';
import { ALLOWED, forbidden } from '../result';
import { HOST_PATH_VOLUMES_ID } from './host';
import type { Check } from './types';
import { own } from '../../../../api/own';

const ALLOWED_SOURCES = ['configMap', 'csi', 'downwardAPI', 'emptyDir', 'ephemeral', 'image', 'persistentVolumeClaim', 'projected', 'secret'];

/** The restricted sources, in the order upstream names the first one a volume sets. */
const RESTRICTED_SOURCES = [
  'hostPath',
  'gcePersistentDisk',
  'awsElasticBlockStore',
  'gitRepo',
  'nfs',
  'iscsi',
  'glusterfs',
  'rbd',
  'flexVolume',
  'cinder',
  'cephfs',
  'flocker',
  'fc',
  'azureFile',
  'vsphereVolume',
  'quobyte',
  'azureDisk',
  'photonPersistentDisk',
  'portworxVolume',
  'scaleIO',
  'storageos',
];

const sets = (v: Record<string, unknown>, key: string): boolean => own(v, key) !== undefined && own(v, key) !== null;

export const restrictedVolumes: Check = {
  id: 'restrictedVolumes',
  level: 'restricted',
  versions: [
    {
      minimumVersion: 0,
      overrides: [HOST_PATH_VOLUMES_ID],
      check: ({ spec }) => {
        const bad: string[] = [];
        const types: string[] = [];
        for (const v of listAt(spec, 'volumes')) {
          if (ALLOWED_SOURCES.some((k) => sets(v, k))) continue;
          bad.push(stringAt(v, 'name'));
          types.push(RESTRICTED_SOURCES.find((k) => sets(v, k)) ?? 'unknown');
        }
        if (bad.length === 0) return ALLOWED;
        const distinct = sortedSet(types);
        return forbidden(
          'restricted volume types',
          `${pluralize('volume', 'volumes', bad.length)} ${joinQuote(bad)} ${pluralize('uses', 'use', bad.length)} ${pluralize('restricted volume type', 'restricted volume types', distinct.length)} ${joinQuote(distinct)}`,
        );
      },
    },
  ],
};
