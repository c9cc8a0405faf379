/**
 * Ages as kubectl prints them (apimachinery's duration.HumanDuration: "0s", "45s", "3m20s"), for
 * the panel's event ages, so the panel and `kubectl get events` read the same.
 */
export { humanDuration } from '../engine/printers/duration';
