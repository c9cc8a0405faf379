/**
 * The cluster CA bundle kubesim publishes: PEM-shaped and the same in every run (the simulated
 * cluster has no real CA; pods only need the ConfigMap to exist and the token volume to mount it).
 */
import { Random } from '../../random';

function simulatedCertificate(): string {
  const random = new Random('kubesim cluster CA');
  const bytes = Buffer.from(Array.from({ length: 768 }, () => random.int(256)));
  const body = bytes.toString('base64').match(/.{1,64}/g) ?? [];
  return ['-----BEGIN CERTIFICATE-----', ...body, '-----END CERTIFICATE-----', ''].join('\n');
}

export const SIMULATED_ROOT_CA = simulatedCertificate();
