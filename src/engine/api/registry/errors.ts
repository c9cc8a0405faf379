/** The texts of failed resource and kind lookups, as apimachinery's RESTMapper and kubectl print them. */
import { formatApiVersion } from '../types';
import { goQuote } from '../gofmt';

/** meta.NoKindMatchError: `no matches for kind "Foo" in version "example.com/v1"`. */
export function noKindMatchMessage(group: string, kind: string, searchedVersions: readonly string[]): string {
  const versions = [...new Set(searchedVersions.map((v) => formatApiVersion(group, v)))].sort();
  if (versions.length === 0) return `no matches for kind ${goQuote(kind)} in group ${goQuote(group)}`;
  if (versions.length === 1) return `no matches for kind ${goQuote(kind)} in version ${goQuote(versions[0]!)}`;
  return `no matches for kind ${goQuote(kind)} in versions [${versions.map(goQuote).join(' ')}]`;
}

/** kubectl's answer to a resource type nobody serves: `kubectl get foos`. */
export function unknownResourceTypeMessage(arg: string): string {
  return `the server doesn't have a resource type ${goQuote(arg)}`;
}
