import { strict as assert } from 'node:assert';
import { Path } from '../../../../src/engine/api/field';
import type { JsonObject } from '../../../../src/engine/api/types';
import { validateAWSElasticBlockStoreVolumeSource, validateGCEPersistentDiskVolumeSource } from '../../../../src/engine/apiserver/validation/core/volumesources';

describe('the partitioned disk volume sources (GCE PD, AWS EBS)', () => {
  // Upstream's message says 1..255 while its check allows 0..255.
  const partition = 'partition: Invalid value: %d: must be between 1 and 255, inclusive';
  const cases: [string, (pd: JsonObject, p: Path) => { message: string }[], JsonObject, string[]][] = [
    ['GCE: a disk with a name', validateGCEPersistentDiskVolumeSource, { pdName: 'data' }, []],
    ['GCE: the name is required', validateGCEPersistentDiskVolumeSource, { partition: 1 }, ['v.pdName: Required value']],
    ['GCE: partition 255 is the last', validateGCEPersistentDiskVolumeSource, { pdName: 'data', partition: 255 }, []],
    ['GCE: partition 256 is out of range', validateGCEPersistentDiskVolumeSource, { pdName: 'data', partition: 256 }, [`v.${partition.replace('%d', '256')}`]],
    ['AWS: a volume with an id', validateAWSElasticBlockStoreVolumeSource, { volumeID: 'vol-1' }, []],
    ['AWS: the id is required, then the partition', validateAWSElasticBlockStoreVolumeSource, { partition: -1 }, ['v.volumeID: Required value', `v.${partition.replace('%d', '-1')}`]],
  ];
  for (const [name, validate, pd, want] of cases) {
    it(name, () => assert.deepEqual(validate(pd, Path.root('v')).map((e) => e.message), want));
  }
});
