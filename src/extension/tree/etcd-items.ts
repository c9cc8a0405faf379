/**
 * The etcd section's items as plain data (no vscode import: the unit tests read them): a member's
 * label, description, tooltip, context value and icon, and the view's message and badge while an
 * alarm is raised.
 */
import type { MemberStatus } from '../../engine/store/etcdserver';
import { raisedAlarms } from '../../protocol/etcd';

/** The item of a member, as plain data (the tests read it). */
export function memberItem(m: MemberStatus): { label: string; description: string; tooltip: string; contextValue: string; icon: string; color?: string } {
  const stopped = m.state === 'stopped';
  const role = stopped ? 'stopped' : m.role;
  const alarms = m.alarms ?? [];
  const flags = [...alarms, m.partitioned ? 'partitioned' : '', m.slowFsyncMs !== undefined ? 'slow disk' : ''].filter(Boolean);
  const description = [role, `term ${m.term}`, `commit ${m.commitIndex}`, ...flags].join(' · ');
  const tooltip = [
    `${m.name} (member ID ${m.id})`,
    `role: ${role}${m.lead ? `, knows ${m.lead} as leader` : ', knows no leader'}`,
    `term ${m.term}, log ${m.firstIndex}–${m.lastIndex}, commit ${m.commitIndex}, applied ${m.appliedIndex}`,
    `revision ${m.revision}, db ${m.dbSizeBytes} bytes${m.dbSizeInUseBytes !== undefined ? ` (${m.dbSizeInUseBytes} in use)` : ''}${m.quotaBackendBytes > 0 ? ` of a ${m.quotaBackendBytes}-byte quota` : ''}`,
    ...raisedAlarms([m]).map((a) => `alarm ${a.alarm}: ${a.text}`),
    `state: ${stopped ? 'stopped' : 'running'}${m.partitioned ? ', partitioned from the other members' : ''}${m.slowFsyncMs !== undefined ? `, slow disk (${m.slowFsyncMs} ms per WAL fsync)` : ''}`,
  ].join('\n');
  const contextValue = ['etcdMember', stopped ? 'stopped' : 'running', ...(m.partitioned ? ['partitioned'] : []), ...(m.slowFsyncMs !== undefined ? ['slow'] : []), ...(alarms.includes('NOSPACE') ? ['nospace'] : [])].join(':');
  const icon = stopped ? 'debug-stop' : alarms.length > 0 ? 'warning' : m.partitioned ? 'debug-disconnect' : m.role === 'leader' ? 'star-full' : m.role === 'follower' ? 'circle-outline' : 'sync';
  const color = stopped ? 'disabledForeground' : alarms.length > 0 || m.partitioned ? 'charts.red' : m.role === 'leader' ? 'charts.blue' : m.role === 'follower' ? undefined : 'charts.orange';
  return { label: m.name, description, tooltip, contextValue, icon, ...(color ? { color } : {}) };
}

/** The view's message and badge while an alarm is raised: etcd's text, who raised it, and the way out. */
export function alarmMessage(members: readonly MemberStatus[]): { message: string; badge: { value: number; tooltip: string } } | undefined {
  const raised = raisedAlarms(members);
  if (raised.length === 0) return undefined;
  const parts = raised.map((a) => `${a.alarm} (${a.members.join(', ')}): ${a.text}`);
  const nospace = raised.some((a) => a.alarm === 'NOSPACE');
  const fix = nospace ? ' Writes fail until you Compact, Defragment each member, then Disarm Alarms.' : '';
  return { message: `Alarm ${parts.join('; ')}.${fix}`, badge: { value: raised.length, tooltip: `etcd alarm ${raised.map((a) => a.alarm).join(', ')}` } };
}

