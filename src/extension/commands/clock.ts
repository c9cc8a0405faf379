/**
 * Pause, Resume, Step and Set Speed: how virtual time moves. Step moves to the cluster's next
 * change (an etcd write, a reconcile that acted, a scheduling decision, a kubelet's step),
 * running the heartbeats and resyncs on the way, and says what changed.
 */
import * as vscode from 'vscode';
import { SPEEDS } from '../settings';
import { speedLabel, stepText } from '../status-text';
import { clusterHost, updateSetting, type Services } from './services';

async function step(s: Services): Promise<void> {
  const host = await clusterHost(s);
  const report = await host.stepToNextChange();
  vscode.window.setStatusBarMessage(stepText(report), 6000);
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
