/**
 * core/v1 Event (pkg/apis/core/validation/events.go). Requests through the core API get only the
 * legacy rules, on create and update alike; events.k8s.io applies stricter ones on top.
 */
import { invalid, Path, required, type ErrorList } from '../../../api/field';
import { isDNS1123Subdomain } from '../../../api/names';
import type { KubeObject } from '../../../api/types';
import { registerValidator } from '../registry';
import { validateQualifiedName } from './formats';
import { obj, str } from './json';

const reportingInstanceLengthLimit = 128;
const actionLengthLimit = 128;
const reasonLengthLimit = 128;
const noteLengthLimit = 1024;

/**
 * legacyValidateEvent. `reportingControllerField` is the name the request's API version gives
 * the reporting controller: "reportingComponent" in core/v1, "reportingController" elsewhere.
 */
export function legacyValidateEvent(event: KubeObject, reportingControllerField: string, reportingController: string): ErrorList {
  const errs: ErrorList = [];
  const namespace = str(event.metadata.namespace);
  const involvedNamespace = str(obj(event['involvedObject'])?.['namespace']);
  const involvedPath = Path.root('involvedObject', 'namespace');
  const len = (s: string): number => Buffer.byteLength(s);
  if (!event['eventTime']) {
    // Old-style events: the namespace must match the involved object's (or be default when it has none).
    if (involvedNamespace.length === 0) {
      if (namespace !== '' && namespace !== 'default') errs.push(invalid(involvedPath, involvedNamespace, 'does not match event.namespace'));
    } else if (namespace !== involvedNamespace) {
      errs.push(invalid(involvedPath, involvedNamespace, 'does not match event.namespace'));
    }
  } else {
    if (involvedNamespace.length === 0 && namespace !== 'default' && namespace !== 'kube-system') {
      errs.push(invalid(involvedPath, involvedNamespace, 'does not match event.namespace'));
    }
    const rcPath = Path.root(reportingControllerField);
    if (reportingController.length === 0) errs.push(required(rcPath, ''));
    errs.push(...validateQualifiedName(reportingController, rcPath));
    const instance = str(event['reportingInstance']);
    if (instance.length === 0) errs.push(required(Path.root('reportingInstance'), ''));
    if (len(instance) > reportingInstanceLengthLimit) errs.push(invalid(Path.root('reportingInstance'), '', `can have at most ${reportingInstanceLengthLimit} characters`));
    const action = str(event['action']);
    if (action.length === 0) errs.push(required(Path.root('action'), ''));
    if (len(action) > actionLengthLimit) errs.push(invalid(Path.root('action'), '', `can have at most ${actionLengthLimit} characters`));
    const reason = str(event['reason']);
    if (reason.length === 0) errs.push(required(Path.root('reason'), ''));
    if (len(reason) > reasonLengthLimit) errs.push(invalid(Path.root('reason'), '', `can have at most ${reasonLengthLimit} characters`));
    if (len(str(event['message'])) > noteLengthLimit) errs.push(invalid(Path.root('message'), '', `can have at most ${noteLengthLimit} characters`));
  }
  errs.push(...isDNS1123Subdomain(namespace).map((m) => invalid(Path.root('namespace'), namespace, m)));
  return errs;
}

const validateCoreEvent = (event: KubeObject): ErrorList => legacyValidateEvent(event, 'reportingComponent', str(event['reportingComponent']));

registerValidator('', 'Event', { create: validateCoreEvent, update: validateCoreEvent });
