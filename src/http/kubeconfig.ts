/**
 * A kubeconfig for the endpoint, in kubectl's own layout: one cluster (the endpoint's URL and
 * its certificate as the authority), a context and a bearer-token user per identity, the first
 * context current.
 */
export interface KubeconfigUser {
  context: string;
  user: string;
  token: string;
}

export function kubeconfigText(server: string, ca: string, users: readonly KubeconfigUser[]): string {
  const caData = Buffer.from(ca).toString('base64');
  const lines = ['apiVersion: v1', 'clusters:', '- cluster:', `    certificate-authority-data: ${caData}`, `    server: ${server}`, '  name: kubesim', 'contexts:'];
  for (const u of users) lines.push('- context:', '    cluster: kubesim', '    namespace: default', `    user: ${u.user}`, `  name: ${u.context}`);
  lines.push(`current-context: ${users[0]!.context}`, 'kind: Config', 'preferences: {}', 'users:');
  for (const u of users) lines.push(`- name: ${u.user}`, '  user:', `    token: ${u.token}`);
  return lines.join('\n') + '\n';
}
