import { strict as assert } from 'node:assert';
import { invalid, Path, required } from '../../../src/engine/api/field';
import { formatKubectlError, formatKubectlErrors, withSource } from '../../../src/engine/kubectl/format';
import { forbiddenError, invalidError, notFoundError, unauthorizedError, StatusError } from '../../../src/engine/api/status';

const deployments = { group: 'apps', name: 'deployments' };
const Deployment = { group: 'apps', name: 'Deployment' };

describe('kubectl error format', () => {
  it('prints server errors with their reason', () => {
    assert.equal(formatKubectlError(notFoundError(deployments, 'web').status), 'Error from server (NotFound): deployments.apps "web" not found\n');
    const forbidden = forbiddenError(deployments, '', 'User "alice" cannot create resource "deployments" in API group "apps" in the namespace "default"');
    assert.equal(
      formatKubectlError(forbidden.status),
      'Error from server (Forbidden): deployments.apps is forbidden: User "alice" cannot create resource "deployments" in API group "apps" in the namespace "default"\n',
    );
    assert.equal(formatKubectlError(unauthorizedError().status), 'error: You must be logged in to the server (Unauthorized)\n');
    assert.equal(formatKubectlError(new StatusError({ code: 500, reason: '', message: 'etcdserver: request is too large' }).status), 'Error from server: etcdserver: request is too large\n');
  });

  it('prints an invalid object with one cause on one line', () => {
    const err = invalidError(Deployment, 'web', [invalid(Path.root('spec', 'replicas'), -1, 'must be greater than or equal to 0')]);
    assert.equal(formatKubectlError(err.status), 'The Deployment "web" is invalid: spec.replicas: Invalid value: -1: must be greater than or equal to 0\n');
  });

  it('prints several causes as "* " lines under the headline, duplicates dropped', () => {
    const errs = [
      invalid(Path.root('spec', 'replicas'), -1, 'must be greater than or equal to 0'),
      required(Path.root('spec', 'selector')),
      required(Path.root('spec', 'selector')),
    ];
    assert.equal(
      formatKubectlError(invalidError(Deployment, 'web', errs).status),
      'The Deployment "web" is invalid: \n* spec.replicas: Invalid value: -1: must be greater than or equal to 0\n* spec.selector: Required value\n',
    );
  });

  it('adds the source file for create -f and apply -f, except to invalid objects', () => {
    const nf = withSource(notFoundError({ group: '', name: 'namespaces' }, 'ghost').status, 'creating', 'app.yaml');
    assert.equal(formatKubectlError(nf), 'Error from server (NotFound): error when creating "app.yaml": namespaces "ghost" not found\n');
    const inv = withSource(invalidError(Deployment, 'web', [required(Path.root('spec', 'selector'))]).status, 'creating', 'app.yaml');
    assert.equal(formatKubectlError(inv), 'The Deployment "web" is invalid: spec.selector: Required value\n');
  });

  it('prints the errors of several objects one per line in the standard form', () => {
    const a = withSource(invalidError(Deployment, 'web', [required(Path.root('spec', 'selector'))]).status, 'creating', 'a.yaml');
    const b = withSource(notFoundError({ group: '', name: 'namespaces' }, 'ghost').status, 'creating', 'b.yaml');
    assert.equal(
      formatKubectlErrors([a, b]),
      'Error from server (Invalid): error when creating "a.yaml": Deployment.apps "web" is invalid: spec.selector: Required value\n' +
        'Error from server (NotFound): error when creating "b.yaml": namespaces "ghost" not found\n',
    );
  });
});
