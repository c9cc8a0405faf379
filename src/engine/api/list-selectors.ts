/**
 * A list or watch request's label and field selectors as kube-apiserver reads them from the
 * query (and the aggregated metrics API from its own): an absent selector selects everything, the
 * field selector's labels are converted for the kind (ConvertFieldLabel), and a selector that does
 * not parse or convert is the request's 400 BadRequest with the parser's text.
 */
import { convertFieldSelector, FieldSelector, parseFieldSelector } from './fieldselector';
import { parseSelector, Selector } from './labels';
import { badRequestError } from './status';

export interface ListSelectors {
  labels: Selector;
  fields: FieldSelector;
}

export function listSelectors(labelSelector: string | undefined, fieldSelector: string | undefined, group: string, kind: string): ListSelectors {
  const labels = labelSelector ? parseSelector(labelSelector) : undefined;
  if (labels && !labels.ok) throw badRequestError(labels.error);
  const parsed = fieldSelector ? parseFieldSelector(fieldSelector) : undefined;
  if (parsed && !parsed.ok) throw badRequestError(parsed.error);
  const fields = convertFieldSelector(group, kind, parsed ? parsed.value : new FieldSelector([]));
  if (!fields.ok) throw badRequestError(fields.error);
  return { labels: labels ? labels.value : Selector.everything(), fields: fields.value };
}
