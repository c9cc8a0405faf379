/**
 * Event names: "<object name>.<unix nanoseconds in hex>" (util.GenerateEventName), or a random
 * UUID when that is not a valid object name. Real clocks read distinct nanoseconds for events
 * made one after another; the virtual clock stands still while work happens at one instant, so
 * the nanoseconds each cluster's events get are made strictly increasing, one apart at least.
 */
import { isDNS1123Subdomain } from '../../api/names';
import type { Clock } from '../../clock';
import type { Random } from '../../random';

const lastNanos = new WeakMap<Clock, bigint>();

function nanosOf(ms: number): bigint {
  const whole = Math.floor(ms);
  return BigInt(whole) * 1_000_000n + BigInt(Math.round((ms - whole) * 1_000_000));
}

/** The clock's time in Unix nanoseconds, later than any read for an event name before. */
export function eventNanos(clock: Clock): bigint {
  const last = lastNanos.get(clock);
  let nanos = nanosOf(clock.now());
  if (last !== undefined && nanos <= last) nanos = last + 1n;
  lastNanos.set(clock, nanos);
  return nanos;
}

export function generateEventName(refName: string, clock: Clock, random: Random): string {
  const name = `${refName}.${eventNanos(clock).toString(16)}`;
  return isDNS1123Subdomain(name).length > 0 ? random.uuid() : name;
}
