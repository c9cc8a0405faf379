/**
 * Node port allocation errors. These come from the Service REST storage's port allocator
 * (pkg/registry/core/service/portallocator), not from validation, but read as field errors on
 * the port: `spec.ports[0].nodePort: Invalid value: 8888: provided port is not in the valid
 * range. The range of valid ports is 30000-32767`.
 */
import { invalid, type FieldError, type Path } from '../../../api/field';

/** A port range as --service-node-port-range takes it: base and size. */
export interface PortRange {
  base: number;
  size: number;
}

export const defaultServiceNodePortRange: PortRange = { base: 30000, size: 2768 };

/** net.PortRange.String(): "30000-32767". */
export function portRangeString(range: PortRange): string {
  return `${range.base}-${range.base + range.size - 1}`;
}

export function nodePortNotInRangeMessage(range: PortRange = defaultServiceNodePortRange): string {
  return `provided port is not in the valid range. The range of valid ports is ${portRangeString(range)}`;
}

export const nodePortAllocatedMessage = 'provided port is already allocated';

export function nodePortInRange(port: number, range: PortRange = defaultServiceNodePortRange): boolean {
  return port >= range.base && port < range.base + range.size;
}

/** The error for a requested node port outside the range (fldPath: spec.ports[i].nodePort or spec.healthCheckNodePort). */
export function nodePortNotInRangeError(fldPath: Path, port: number, range: PortRange = defaultServiceNodePortRange): FieldError {
  return invalid(fldPath, port, nodePortNotInRangeMessage(range));
}

export function nodePortAllocatedError(fldPath: Path, port: number): FieldError {
  return invalid(fldPath, port, nodePortAllocatedMessage);
}
