import { strict as assert } from 'node:assert';
import { ADMIN_USER } from '../../../src/engine/apiserver/authn/user';
import { MirrorCluster } from '../../../src/server/mirror/mirror-cluster';
import { FileValidator } from '../../../src/server/validation/file-validator';

describe('server: files with carriage returns only', function () {
  this.timeout(20_000);

  it('diagnostics land on the line the editor shows (a lone CR ends a line), for the one document kubectl reads', async () => {
    const mirror = await MirrorCluster.create();
    const file = new FileValidator('mac.yaml', mirror);
    try {
      const lines = ['apiVersion: apps/v1', 'kind: Deployment', 'metadata:', '  name: web', 'spec:', '  replicas: -1', '  selector: {matchLabels: {app: web}}', '  template:', '    metadata: {labels: {app: web}}', '    spec:', '      containers: [{name: web, image: nginx}]', ''];
      const diagnostics = await file.validate(lines.join('\r'), { user: ADMIN_USER, fieldValidation: 'Strict' }, () => true);
      assert.deepEqual(
        diagnostics.map((d) => [d.range.start.line, d.range.start.character, d.message]),
        [[5, 12, 'spec.replicas: Invalid value: -1: must be greater than or equal to 0']],
      );
    } finally {
      file.dispose();
      await mirror.close();
    }
  });

  it('a block value ends where its last line does, counted with lone CRs (a fuzz find: the range ended on line 0)', async () => {
    const mirror = await MirrorCluster.create();
    const file = new FileValidator('ns.yaml', mirror);
    try {
      const text = ['apiVersion: v1', 'kind: Namespace', 'metadata:', '  name: abc', 'spec:', '  finalizers:', '  - foo', ''].join('\r');
      const diagnostics = await file.validate(text, { user: ADMIN_USER, fieldValidation: 'Strict' }, () => true);
      assert.deepEqual(
        diagnostics.map((d) => [d.range, d.message]),
        [[{ start: { line: 6, character: 2 }, end: { line: 6, character: 7 } }, 'spec.finalizers: Invalid value: "foo": name is neither a standard finalizer name nor is it fully qualified']],
      );
    } finally {
      file.dispose();
      await mirror.close();
    }
  });
});
