// What varies between runs and is not what the cases test: times and ages, generated names and
// uids, resourceVersions, allocated IPs, ports and temporary paths. Each becomes a placeholder;
// runs of spaces between columns become two spaces (ages change column widths).

const RULES = [
  // RFC 3339 times, diff's file times, describe's times.
  [/\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?Z/g, '<time>'],
  [/\d{4}-\d\d-\d\d \d\d:\d\d:\d\d\.\d+ [+-]\d{4}/g, '<time>'],
  [/\b(Mon|Tue|Wed|Thu|Fri|Sat|Sun), \d\d (Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec) \d{4} \d\d:\d\d:\d\d [+-]\d{4}/g, '<time>'],
  [/\b[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\b/g, '<uid>'],
  [/(resourceVersion"?:\s*)"\d+"/g, '$1"<rv>"'],
  [/(restartedAt"?:\s*)"?<time>"?/g, '$1<time>'],
  // Pods, replica sets and their hashes; endpoint slices; token volumes.
  [/\b([a-z][a-z0-9-]*?)-[bcdf-hj-np-tv-z2-9]{8,10}-[bcdf-hj-np-tv-z2-9]{5}\b/g, '$1-<rs>-<pod>'],
  [/\b(web|api3?|api2)-[bcdf-hj-np-tv-z2-9]{8,10}\b/g, '$1-<rs>'],
  [/(pod-template-hash[=:]\s*"?)[bcdf-hj-np-tv-z2-9]{8,10}/g, '$1<rs>'],
  [/\b(web|kube-api-access)-[bcdf-hj-np-tv-z2-9]{5}\b/g, '$1-<id>'],
  [/containerd:\/\/[0-9a-f]{64}/g, 'containerd://<container-id>'],
  [/\b10\.244\.\d+\.\d+\b/g, '<pod-ip>'],
  [/\b10\.(9[6-9]|1[01]\d)\.\d+\.\d+\b/g, (ip) => (ip === '10.96.0.1' ? ip : '<cluster-ip>')],
  [/127\.0\.0\.1:\d+/g, '127.0.0.1:<port>'],
  [/\/tmp\/(LIVE|MERGED)-\d+/g, '/tmp/$1-<n>'],
  // Durations: ages (5s, 3m20s, 2d4h) and "(x2 over 5s)".
  [/\b\d+(?:y\d+d|d\d+h|h\d+m|m\d+s|[smhdy])\b/g, '<age>'],
  [/\(x\d+ over <age>\)/g, '(x<n> over <age>)'],
];

const AGE_RULES = RULES.slice(-2).map(([re]) => re);

const WORKER = [/\bkubesim-worker\d*(\/172\.18\.0\.\d+)?/g, 'kubesim-worker<n>'];

/** Lines of a unified diff keep their spacing (it is the YAML's indentation). */
const isDiffLine = (line) => /^[+-] /.test(line);

/** `ages: false` keeps durations-looking values as they are (`kubectl top`'s 20m is CPU, not an age). */
export function normalize(text, { anyWorker = false, ages = true } = {}) {
  let out = text;
  const rules = ages ? RULES : RULES.filter(([re]) => !AGE_RULES.includes(re));
  for (const [re, to] of anyWorker ? [...rules, WORKER] : rules) out = out.replace(re, to);
  return out
    .split('\n')
    .map((line) => (isDiffLine(line) ? line : line.replace(/(\S) {2,}/g, '$1  ')).replace(/\s+$/, ''))
    .join('\n');
}
