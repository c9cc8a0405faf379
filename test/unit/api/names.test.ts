import assert from 'node:assert/strict';
import * as v from '../../../src/engine/api/names';
import { Path } from '../../../src/engine/api/field';

// Good/bad tables from k8s.io/apimachinery/pkg/util/validation/validation_test.go (release-1.35).
function goodBad(name: string, check: (s: string) => readonly unknown[], good: string[], bad: string[]): void {
  describe(name, () => {
    it('accepts the good values', () => {
      for (const g of good) assert.deepEqual(check(g), [], `${JSON.stringify(g)} should be valid`);
    });
    it('rejects the bad values', () => {
      for (const b of bad) assert.ok(check(b).length > 0, `${JSON.stringify(b)} should be invalid`);
    });
  });
}

const r = (c: string, n: number): string => c.repeat(n);

describe('names and formats', () => {
  goodBad(
    'IsDNS1123Label',
    v.isDNS1123Label,
    ['a', 'ab', 'abc', 'a1', 'a-1', 'a--1--2--b', '0', '01', '012', '1a', '1-a', '1--a--b--2', r('a', 63)],
    ['', 'A', 'ABC', 'aBc', 'A1', 'A-1', '1-A', '-', 'a-', '-a', '1-', '-1', '_', 'a_', '_a', 'a_b', '1_', '_1', '1_2', '.', 'a.', '.a', 'a.b', '1.', '.1', '1.2', ' ', 'a ', ' a', 'a b', '1 ', ' 1', '1 2', r('a', 64)],
  );
  goodBad(
    'IsDNS1123Subdomain',
    v.isDNS1123Subdomain,
    ['a', 'ab', 'abc', 'a1', 'a-1', 'a--1--2--b', '0', '01', '012', '1a', '1-a', '1--a--b--2', 'a.a', 'ab.a', 'abc.a', 'a1.a', 'a-1.a', 'a--1--2--b.a', 'a.1', 'ab.1', 'abc.1', 'a1.1', 'a-1.1', 'a--1--2--b.1', '0.a', '01.a', '012.a', '1a.a', '1-a.a', '0.1', '01.1', '012.1', '1a.1', '1-a.1', '1--a--b--2.1', 'a.b.c.d.e', 'aa.bb.cc.dd.ee', '1.2.3.4.5', '11.22.33.44.55', r('a', 253)],
    ['', 'A', 'ABC', 'aBc', 'A1', 'A-1', '1-A', '-', 'a-', '-a', '1-', '-1', '_', 'a_', '_a', 'a_b', '1_', '_1', '1_2', '.', 'a.', '.a', 'a..b', '1.', '.1', '1..2', ' ', 'a ', ' a', 'a b', '1 ', ' 1', '1 2', 'A.a', 'aB.a', 'ab.A', 'A1.a', 'a1.A', 'A.1', 'aB.1', 'A1.1', '1A.1', '0.A', '01.A', '012.A', '1A.a', '1a.A', 'A.B.C.D.E', 'AA.BB.CC.DD.EE', 'a.B.c.d.e', 'aa.bB.cc.dd.ee', 'a@b', 'a,b', 'a_b', 'a;b', 'a:b', 'a%b', 'a?b', 'a$b', r('a', 254)],
  );
  goodBad(
    'IsDNS1035Label',
    v.isDNS1035Label,
    ['a', 'ab', 'abc', 'a1', 'a-1', 'a--1--2--b', r('a', 63)],
    ['0', '01', '012', '1a', '1-a', '1--a--b--2', '', 'A', 'ABC', 'aBc', 'A1', 'A-1', '1-A', '-', 'a-', '-a', '1-', '-1', '_', 'a_', '_a', 'a_b', '1_', '_1', '1_2', '.', 'a.', '.a', 'a.b', '1.', '.1', '1.2', ' ', 'a ', ' a', 'a b', '1 ', ' 1', '1 2', r('a', 64)],
  );
  goodBad(
    'IsValidPortName',
    v.isValidPortName,
    ['telnet', 're-mail-ck', 'pop3', 'a', 'a-1', '1-a', 'a-1-b-2-c', '1-a-2-b-3'],
    ['longerthan15characters', '', r('a', 16), '12345', '1-2-3-4', '-begin', 'end-', 'two--hyphens', 'whois++'],
  );
  goodBad(
    'IsQualifiedName',
    v.isQualifiedName,
    ['simple', 'now-with-dashes', '1-starts-with-num', '1234', 'simple/simple', 'now-with-dashes/simple', 'now-with-dashes/now-with-dashes', 'now.with.dots/simple', 'now-with.dashes-and.dots/simple', '1-num.2-num/3-num', '1234/5678', '1.2.3.4/5678', 'Uppercase_Is_OK_123', 'example.com/Uppercase_Is_OK_123', 'requests.storage-foo', r('a', 63), r('a', 253) + '/' + r('b', 63)],
    ['nospecialchars%^=@', 'cantendwithadash-', '-cantstartwithadash-', 'only/one/slash', 'Example.com/abc', 'example_com/abc', 'example.com/', '/simple', r('a', 64), r('a', 254) + '/abc'],
  );
  goodBad(
    'IsValidLabelValue',
    v.isValidLabelValue,
    ['simple', 'now-with-dashes', '1-starts-with-num', 'end-with-num-1', '1234', r('a', 63), ''],
    ['nospecialchars%^=@', 'Tama-nui-te-rā.is.Māori.sun', '\\backslashes\\are\\bad', '-starts-with-dash', 'ends-with-dash-', '.starts.with.dot', 'ends.with.dot.', r('a', 64)],
  );
  goodBad(
    'IsHTTPHeaderName',
    v.isHTTPHeaderName,
    ['Accept-Encoding', 'Host', 'If-Modified-Since', 'X-Forwarded-For', 'a', 'ab', 'abc', 'a1', '-a', 'a-', 'a-b', 'a-1', 'a--1--2--b', '--abc-123', 'A', 'AB', 'AbC', 'A1', '-A', 'A-', 'A-B', 'A-1', 'A--1--2--B', '--123-ABC'],
    ['Host:', 'X-Forwarded-For:', 'X-@Home', '', '_', 'a_', '_a', '1_', '1_2', '.', 'a.', '.a', 'a.b', '1.', '.1', '1.2', ' ', 'a ', ' a', 'a b', '1 ', ' 1', '1 2', '#a#', '^', ',', ';', '=', '<', '?', '@', '{'],
  );
  goodBad('IsValidPercent', v.isValidPercent, ['0%', '00000%', '1%', '01%', '99%', '100%', '101%'], ['', '0', '100', '0.0%', '99.9%', 'hundred', ' 1%', '1% ', '-0%', '-1%', '+1%']);
  goodBad('IsConfigMapKey', v.isConfigMapKey, ['a', 'good', 'good-good', 'still.good', 'this.is.also.good', '.so.is.this', 'THIS_IS_GOOD', 'so_is_this_17'], ['.', '..', '..bad', 'b*d', 'bad!&bad']);
  goodBad('IsWildcardDNS1123Subdomain', v.isWildcardDNS1123Subdomain, ['*.example.com', '*.bar.com', '*.foo.bar.com'], ['*.*.bar.com', '*.foo.*.com', '*bar.com', 'f*.bar.com', '*']);
  goodBad(
    'IsRelaxedEnvVarName',
    v.isRelaxedEnvVarName,
    ['-', ':', '_', '+a', '>a', '<a', 'a.', 'a..', '*a', '%a', '?a', 'a:a', 'a_a', 'aAz', '~a', '|a', 'a0a', 'a9', '/a', 'a ', '#a', '0a', '0 a', "'a", '(a', '@a'],
    ['', '=', 'a=', '1=a', 'a=b', '#%=&&', '\x01abc', '\x82abc', 'Ç ç', 'Ä ä', 'Ñ ñ', 'Ø ø'],
  );
  const fp = Path.root('f');
  goodBad(
    'IsFullyQualifiedDomainName',
    (s) => v.isFullyQualifiedDomainName(fp, s),
    ['a.com', 'k8s.io', 'dev.k8s.io', 'dev.k8s.io.', 'foo.example.com', 'this.is.a.really.long.fqdn', 'bbc.co.uk', '10.0.0.1', 'hyphens-are-good.k8s.io', r('a', 63) + '.k8s.io', [r('a', 63), r('b', 63), r('c', 63), r('d', 54), 'k8s.io'].join('.')],
    ['.', '...', '.io', 'com', '.com', 'Dev.k8s.io', '.foo.example.com', '*.example.com', '*.bar.com', '*.foo.bar.com', 'underscores_are_bad.k8s.io', 'foo@bar.example.com', 'http://foo.example.com', r('a', 64) + '.k8s.io', [r('a', 63), r('b', 63), r('c', 63), r('d', 55), 'k8s.io'].join('.')],
  );
  goodBad(
    'IsFullyQualifiedName',
    (s) => v.isFullyQualifiedName(fp, s),
    ['dev.k8s.io', 'foo.example.com', 'this.is.a.really.long.fqdn', 'bbc.co.uk', '10.0.0.1', 'hyphens-are-good.k8s.io', r('a', 246) + '.k8s.io'],
    ['...', 'dev.k8s.io.', '.io', 'Dev.k8s.io', 'k8s.io', '*.example.com', '*.bar.com', '*.foo.bar.com', 'underscores_are_bad.k8s.io', 'foo@bar.example.com', 'http://foo.example.com', r('a', 247) + '.k8s.io'],
  );
  goodBad(
    'IsDomainPrefixedPath',
    (s) => v.isDomainPrefixedPath(fp, s),
    ['a/b', 'a/b/c/d', 'a.com/foo', 'a.b.c.d/foo', 'k8s.io/foo/bar', 'k8s.io/FOO/BAR', 'dev.k8s.io/more/path', 'this.is.a.really.long.fqdn/even/longer/path/just/because', 'bbc.co.uk/path/goes/here', '10.0.0.1/foo', 'hyphens-are-good.k8s.io/and-in-paths-too', r('a', 240) + '.k8s.io/a', 'k8s.io/' + r('a', 240)],
    ['.', '...', '/b', 'com', '.com', 'a.b.c.d/foo?a=b', 'a.b.c.d/foo#a', 'Dev.k8s.io', '.foo.example.com', '*.example.com', 'example.com/foo{}[]@^`', 'underscores_are_bad.k8s.io', 'underscores_are_bad.k8s.io/foo', 'foo@bar.example.com', 'foo@bar.example.com/foo', r('a', 247) + '.k8s.io'],
  );

  describe('exact messages', () => {
    it('IsDNS1123Label formats the regex error with the doubled space of RegexError', () => {
      assert.deepEqual(v.isDNS1123Label('My_Name'), [
        "a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')",
      ]);
      assert.deepEqual(v.isDNS1123Label('a.b'), ['must not contain dots']);
      assert.deepEqual(v.isDNS1123Label(r('a', 64)), ['must be no more than 63 characters']);
    });
    it('IsDNS1123Subdomain', () => {
      assert.deepEqual(v.isDNS1123Subdomain('A'), [
        "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')",
      ]);
    });
    it('IsDNS1035Label', () => {
      assert.deepEqual(v.isDNS1035Label('1a'), [
        "a DNS-1035 label must consist of lower case alphanumeric characters or '-', start with an alphabetic character, and end with an alphanumeric character (e.g. 'my-name',  or 'abc-123', regex used for validation is '[a-z]([-a-z0-9]*[a-z0-9])?')",
      ]);
    });
    it('IsQualifiedName uses the content package texts (bytes)', () => {
      assert.deepEqual(v.isQualifiedName(r('a', 64)), ['name part must be no more than 63 bytes']);
      assert.deepEqual(v.isQualifiedName('/simple'), ['prefix part must be non-empty']);
      assert.deepEqual(v.isQualifiedName('example.com/'), [
        'name part must be non-empty',
        "name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')",
      ]);
      assert.deepEqual(v.isQualifiedName('Example.com/abc'), [
        "prefix part a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')",
      ]);
    });
    it('IsValidLabelValue', () => {
      assert.deepEqual(v.isValidLabelValue('-x'), [
        "a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyValue',  or 'my_value',  or '12345', regex used for validation is '(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?')",
      ]);
      assert.equal(v.isValidLabelValue(r('a', 64))[0], 'must be no more than 63 bytes');
    });
    it('IsValidPortNum, IsInRange, IsValidUserID', () => {
      assert.deepEqual(v.isValidPortNum(0), ['must be between 1 and 65535, inclusive']);
      assert.deepEqual(v.isInRange(5, -4, 2), ['must be between -4 and 2, inclusive']);
      assert.deepEqual(v.isValidUserID(2147483648), ['must be between 0 and 2147483647, inclusive']);
      assert.deepEqual(v.isValidGroupID(-1), ['must be between 0 and 2147483647, inclusive']);
    });
    it('IsValidPortName lists every problem', () => {
      assert.deepEqual(v.isValidPortName('-1--'), [
        'must contain at least one letter (a-z)',
        'must not contain consecutive hyphens',
        'must not begin or end with a hyphen',
      ]);
    });
    it('IsConfigMapKey and IsEnvVarName', () => {
      assert.deepEqual(v.isConfigMapKey('..'), ["must not be '..'"]);
      assert.deepEqual(v.isConfigMapKey('b*d'), [
        "a valid config key must consist of alphanumeric characters, '-', '_' or '.' (e.g. 'key.name',  or 'KEY_NAME',  or 'key-name', regex used for validation is '[-._a-zA-Z0-9]+')",
      ]);
      assert.deepEqual(v.isEnvVarName('1a'), [
        "a valid environment variable name must consist of alphabetic characters, digits, '_', '-', or '.', and must not start with a digit (e.g. 'my.env-name',  or 'MY_ENV.NAME',  or 'MyEnvName1', regex used for validation is '[-._a-zA-Z][-._a-zA-Z0-9]*')",
      ]);
      assert.deepEqual(v.isRelaxedEnvVarName(''), ['environment variable name must be non-empty']);
    });
    it('IsCIdentifier and IsDecimalInteger', () => {
      assert.deepEqual(v.isCIdentifier('1a'), [
        "a valid C identifier must start with alphabetic character or '_', followed by a string of alphanumeric characters or '_' (e.g. 'my_name',  or 'MY_NAME',  or 'MyName', regex used for validation is '[A-Za-z_][A-Za-z0-9_]*')",
      ]);
      assert.deepEqual(v.isDecimalInteger('0700'), ['must be a valid decimal integer in canonical form']);
      assert.deepEqual(v.isDecimalInteger('-456'), []);
    });
    it('IsDNS1123SubdomainWithUnderscore', () => {
      assert.deepEqual(v.isDNS1123SubdomainWithUnderscore('sub._example.com'), []);
      assert.deepEqual(v.isDNS1123SubdomainWithUnderscore('_'), [
        "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '_', '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '_?[a-z0-9]([-_a-z0-9]*[a-z0-9])?(\\._?[a-z0-9]([-_a-z0-9]*[a-z0-9])?)*')",
      ]);
    });
    it('IsFullyQualifiedName messages', () => {
      assert.equal(v.isFullyQualifiedName(fp, 'k8s.io')[0]!.message, 'f: Invalid value: "k8s.io": should be a domain with at least three segments separated by dots');
      assert.equal(v.isFullyQualifiedName(fp, '')[0]!.message, 'f: Required value');
    });
    it('IsDomainPrefixedKey', () => {
      assert.deepEqual(v.isDomainPrefixedKey(fp, 'example/com'), []);
      assert.equal(v.isDomainPrefixedKey(fp, 'example')[0]!.message, 'f: Invalid value: "example": must be a domain-prefixed key (such as "acme.io/foo")');
    });
  });

  describe('object names (pkg/api/validation)', () => {
    it('maskTrailingDash replaces the last two characters, as upstream does', () => {
      assert.equal(v.maskTrailingDash('abc-'), 'aba');
      assert.equal(v.maskTrailingDash('-'), '-');
      assert.deepEqual(v.nameIsDNSSubdomain('abc-', true), []);
      assert.deepEqual(v.nameIsDNSSubdomain('abc-', false).length, 1);
      assert.deepEqual(v.nameIsDNSLabel('a.-', true), []);
    });
    it('IsValidPathSegmentName', () => {
      assert.deepEqual(v.isValidPathSegmentName('..'), ["may not be '..'"]);
      assert.deepEqual(v.isValidPathSegmentName('a/b%c'), ["may not contain '/'", "may not contain '%'"]);
      assert.deepEqual(v.validatePathSegmentName('.', true), []);
    });
  });
});
