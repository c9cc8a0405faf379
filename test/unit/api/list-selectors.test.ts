/** A list request's selectors: absent ones select everything; bad ones are the request's 400 with the parser's text. */
import { strict as assert } from 'node:assert';
import { listSelectors } from '../../../src/engine/api/list-selectors';
import { StatusError } from '../../../src/engine/api/status';

function badRequest(label: string | undefined, field: string | undefined, group: string, kind: string): string {
  try {
    listSelectors(label, field, group, kind);
  } catch (err) {
    assert.ok(err instanceof StatusError);
    assert.equal(err.status.code, 400);
    assert.equal(err.status.reason, 'BadRequest');
    return err.status.message ?? '';
  }
  assert.fail('expected a BadRequest');
}

describe('list selectors', () => {
  it('selects everything without selectors', () => {
    const s = listSelectors(undefined, '', '', 'Pod');
    assert.ok(s.labels.empty());
    assert.ok(s.fields.empty());
  });

  it('parses the label selector and converts the field labels for the kind', () => {
    const s = listSelectors('app=web', 'spec.host=n1', '', 'Pod');
    assert.equal(s.labels.toString(), 'app=web');
    assert.equal(s.fields.toString(), 'spec.nodeName=n1');
  });

  it('answers a bad selector with the parser\'s or the conversion\'s text, the label selector first', () => {
    assert.equal(badRequest('x=a=b', 'bogus', '', 'Pod'), "found '=', expected: ',' or 'end of string'");
    assert.equal(badRequest(undefined, 'bogus', '', 'Pod'), "invalid selector: 'bogus'; can't understand 'bogus'");
    assert.equal(badRequest(undefined, 'spec.color=red', '', 'Pod'), 'field label not supported: spec.color');
    assert.equal(badRequest(undefined, 'spec.nodeName=n1', 'metrics.k8s.io', 'PodMetrics'), '"spec.nodeName" is not a known field selector: only "metadata.name", "metadata.namespace"');
  });
});

