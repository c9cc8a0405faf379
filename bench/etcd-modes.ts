/**
 * The stores a suite compares side by side: MEMBERS/LATENCY, such as 3/model (the cluster's
 * default: three Raft members under the latency model) or 1/instant (one member whose requests
 * complete in the virtual instant they are made, the timing before the model was on).
 */
export interface EtcdMode {
  readonly text: string;
  readonly members: number;
  readonly latency: 'model' | 'instant';
}

export function parseEtcdModes(suite: string, list: string): EtcdMode[] {
  return list.split(',').map((text) => {
    const [members, latency] = text.split('/');
    const n = Number(members);
    if (!(n === 1 || n === 3 || n === 5) || (latency !== 'model' && latency !== 'instant')) throw new Error(`bench ${suite}: --etcd ${JSON.stringify(text)}: use MEMBERS/LATENCY such as 3/model or 1/instant`);
    return { text, members: n, latency };
  });
}
