/**
 * Feature gates the networking and discovery rules depend on, at their Kubernetes 1.35 defaults.
 * StrictIPCIDRValidation (beta since 1.34) rejects leading zeros and IPv4-mapped IPv6 in the
 * legacy IP and CIDR fields.
 */
export const strictIPCIDRValidation = true;
