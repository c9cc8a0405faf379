import { requireEtcd } from '../../support/etcd';
import { etcdBackend } from './fixtures';
import { storeSuite } from './suite';

describe('store (etcd backend, real etcd 3.4)', function () {
  before(function () {
    requireEtcd(this);
  });
  storeSuite(etcdBackend());
});
