import { strict as assert } from 'node:assert';
import { readFileSync } from 'node:fs';
import type { MarkupContent } from 'vscode-languageserver';
import { hover } from '../../../src/server/hover';
import { MirrorCluster } from '../../../src/server/mirror/mirror-cluster';
import { unitAt } from '../../../src/server/units';
import { FileValidator } from '../../../src/server/validation/file-validator';

describe('server: hover', function () {
  this.timeout(20_000);
  let text: (line: number, character: number) => string | undefined;
  let mirror: MirrorCluster;
  before(async () => {
    mirror = await MirrorCluster.create();
    const file = new FileValidator('broken.yaml', mirror);
    const units = file.analyze(readFileSync('examples/broken.yaml', 'utf8'));
    text = (line, character) => {
      const position = { line, character };
      const unit = unitAt(units, position);
      const h = unit && hover(unit, position);
      return h ? (h.contents as MarkupContent).value : undefined;
    };
  });
  after(() => mirror.close());

  it('a field: kubectl explain’s type and the OpenAPI description', () => {
    const replicas = text(8, 4)!;
    assert.ok(replicas.startsWith('`replicas` <integer>\n\nNumber of desired pods.'), replicas);
    assert.ok(text(8, 13)!.startsWith('`replicas` <integer>'), 'on the value too');
    assert.match(text(17, 8)!, /^`containers` <\[\]Container> -required-\n\nList of containers belonging to the pod/);
    assert.match(text(10, 6)!, /^`matchLabels` <map\[string\]string>/);
    assert.match(text(5, 2)!, /^`metadata` <ObjectMeta>\n\nStandard object's metadata/);
  });

  it('kind and apiVersion: the resource', () => {
    assert.match(text(4, 7)!, /^\*\*Deployment\*\* \(apps\/v1\)\n\nDeployment enables declarative updates for Pods and ReplicaSets\./);
    assert.match(text(3, 2)!, /^\*\*Deployment\*\* \(apps\/v1\)/);
  });

  it('nothing on comments or unknown fields', () => {
    assert.equal(text(0, 3), undefined);
  });
});
