import { strict as assert } from 'node:assert';
import { Path } from '../../../../src/engine/api/field';
import { validateWebhookService, validateWebhookURL } from '../../../../src/engine/apiserver/validation/admissionregistration/webhook-client';

const url = (u: string): string[] => validateWebhookURL(Path.root('url'), u, true).map((e) => e.message);

describe('webhook client config', () => {
  it('accepts an https URL with a path', () => assert.deepEqual(url('https://example.com:8443/hook'), []));

  it('reports url.Parse failures as required values', () => {
    assert.deepEqual(url(':foo'), ['url: Required value: url must be a valid URL: parse ":foo": missing protocol scheme; desired format: https://host[/path]']);
    assert.deepEqual(url('https://example.com:port/'), [
      'url: Required value: url must be a valid URL: parse "https://example.com:port/": invalid port ":port" after host; desired format: https://host[/path]',
    ]);
  });

  it('reports scheme, host, user, fragment and query', () => {
    assert.deepEqual(url('http:///x?a=b'), [
      `url: Invalid value: "http": 'https' is the only allowed URL scheme; desired format: https://host[/path]`,
      'url: Invalid value: "": host must be specified; desired format: https://host[/path]',
      'url: Invalid value: "a=b": query parameters are not permitted in the URL',
    ]);
  });

  it('keeps upstream swapping service name and namespace', () => {
    const errs = validateWebhookService(Path.root('service'), 'svc', '', undefined, 443).map((e) => e.message);
    assert.deepEqual(errs, ['service.name: Required value']);
  });

  it('checks path segments as DNS subdomains', () => {
    const errs = validateWebhookService(Path.root('service'), 'svc', 'ns', '/Hook/', 443).map((e) => e.detail);
    assert.equal(errs.length, 1);
    assert.match(errs[0]!, /^segment\[0\]: a lowercase RFC 1123 subdomain/);
  });
});
