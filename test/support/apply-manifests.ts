/**
 * Manifests the editor-agrees-with-Apply tests apply (test/unit/server/apply-agreement.test.ts in
 * node, test/vscode/apply-agreement.test.ts in the editor): kinds whose update rules differ.
 */
export const JOB = `apiVersion: batch/v1
kind: Job
metadata:
  name: pi
spec:
  template:
    spec:
      restartPolicy: Never
      containers:
        - name: pi
          image: perl:5.34
          command: ["perl", "-e", "print 1"]
`;

export const STATEFULSET = `apiVersion: apps/v1
kind: StatefulSet
metadata:
  name: db
spec:
  serviceName: db
  replicas: 1
  selector:
    matchLabels:
      app: db
  template:
    metadata:
      labels:
        app: db
    spec:
      containers:
        - name: db
          image: postgres:16
`;

/** Immutable: a change of its data is refused. */
export const CONFIGMAP = 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: settings\nimmutable: true\ndata:\n  mode: fast\n';

/** The line (0-based) where `needle` starts in `text`. */
export const lineOf = (text: string, needle: string): number => text.slice(0, text.indexOf(needle)).split('\n').length - 1;
