/**
 * Pause, Resume, Step and Set Speed: how virtual time moves. Step runs the cluster's next
 * pending event (a timer of a controller, the scheduler, a kubelet, etcd) and says which.
 */
import * as vscode from 'vscode';
import { SPEEDS } from '../settings';
import { speedLabel } from '../status-text';
import { clusterHost, updateSetting, type Services } from './services';

async function step(s: Services): Promise<void> {
  const host = await clusterHost(s);
  host.pacer.pause();
  await host.pacer.idle();
  const next = host.cluster.clock.pending()[0];
  const ran = await host.pacer.step();
  const when = new Date(host.cluster.clock.now()).toISOString().replace('.000Z', 'Z');
  vscode.window.setStatusBarMessage(ran && next ? `KubeSim: stepped "${next.label}" at ${when}` : 'KubeSim: nothing is pending', 4000);
}

async function setSpeed(s: Services): Promise<void> {
  const current = s.settings().speed;
  const items = SPEEDS.map((v) => ({ label: speedLabel(v), description: v === current ? 'current' : v === 1 ? 'real time' : undefined, speed: v }));
  const picked = await vscode.window.showQuickPick(items, { title: 'KubeSim: speed of virtual time', placeHolder: `now ${speedLabel(current)}` });
  // The setting is the one source of the speed; its change handler adjusts the running clock.
  if (picked) await updateSetting('speed', picked.speed);
}

export function registerClockCommands(s: Services): vscode.Disposable[] {
  return [
    vscode.commands.registerCommand('kubesim.pause', async () => (await clusterHost(s)).pacer.pause()),
    vscode.commands.registerCommand('kubesim.resume', async () => (await clusterHost(s)).pacer.resume()),
    vscode.commands.registerCommand('kubesim.step', () => step(s)),
    vscode.commands.registerCommand('kubesim.setSpeed', () => setSpeed(s)),
  ];
}
