/**
 * The panel's own small components over @vscode/webview-ui-toolkit (and codicons): the views
 * build their controls through these, so that a swap to another component library
 * (@vscode-elements) touches this file only.
 */
import { h } from './dom';

export interface Choice {
  readonly value: string;
  readonly label: string;
}

export interface Dropdown {
  readonly element: HTMLElement;
  setChoices(choices: readonly Choice[], value: string): void;
  readonly value: string;
}

/** A labelled drop-down (vscode-dropdown); `onChange` hears the chosen value. */
export function dropdown(id: string, label: string, onChange: (value: string) => void): Dropdown {
  const select = h('vscode-dropdown', { id, 'aria-label': label, position: 'below' });
  let current = '';
  let signature = '';
  select.addEventListener('change', () => {
    const v = (select as HTMLElement & { value?: string }).value ?? '';
    if (v === current) return;
    current = v;
    onChange(v);
  });
  const element = h('label', { class: 'control' }, h('span', { class: 'control-label' }, label), select);
  return {
    element,
    get value() {
      return current;
    },
    setChoices(choices, value) {
      const next = JSON.stringify([choices, value]);
      if (next === signature) return;
      signature = next;
      current = value;
      // Options kept where their value stays (creating a toolkit option is the expensive part):
      // only the ones that came or went are added or removed, in the new order.
      const existing = new Map<string, HTMLElement>();
      for (const el of [...select.children] as HTMLElement[]) existing.set(el.getAttribute('value') ?? '', el);
      const wanted = new Set(choices.map((c) => c.value));
      for (const [v, el] of existing) if (!wanted.has(v)) el.remove();
      let at = select.firstElementChild;
      for (const c of choices) {
        let el = existing.get(c.value);
        if (!el || !el.isConnected) el = h('vscode-option', { value: c.value }, c.label);
        else if (el.textContent !== c.label) el.textContent = c.label;
        if (c.value === value) el.setAttribute('selected', '');
        else el.removeAttribute('selected');
        if (el !== at) select.insertBefore(el, at);
        else at = at.nextElementSibling;
      }
      (select as HTMLElement & { value?: string }).value = value;
    },
  };
}

export interface TextField {
  readonly element: HTMLElement;
  readonly input: HTMLElement;
  setError(message: string | undefined): void;
  value: string;
}

/** A labelled text field (vscode-text-field) that reports its value as the user types, with an error line. */
export function textField(id: string, label: string, placeholder: string, onInput: (value: string) => void): TextField {
  const input = h('vscode-text-field', { id, placeholder, 'aria-label': label, 'aria-describedby': `${id}-error` });
  const error = h('span', { id: `${id}-error`, class: 'control-error', role: 'alert' });
  input.addEventListener('input', () => onInput((input as HTMLElement & { value?: string }).value ?? ''));
  const element = h('label', { class: 'control' }, h('span', { class: 'control-label' }, label), input, error);
  return {
    element,
    input,
    setError(message) {
      error.textContent = message ?? '';
      if (message) input.setAttribute('aria-invalid', 'true');
      else input.removeAttribute('aria-invalid');
    },
    get value() {
      return (input as HTMLElement & { value?: string }).value ?? '';
    },
    set value(v: string) {
      (input as HTMLElement & { value?: string }).value = v;
    },
  };
}

/** A codicon: <span class="codicon codicon-NAME">, hidden from assistive technology. */
export function icon(name: string): HTMLElement {
  return h('span', { class: `codicon codicon-${name}`, 'aria-hidden': 'true' });
}

/** An icon button (vscode-button appearance="icon") with a label for screen readers and a tooltip. */
export function iconButton(id: string, iconName: string, label: string, onClick: () => void): HTMLElement {
  const button = h('vscode-button', { id, appearance: 'icon', 'aria-label': label, title: label }, icon(iconName));
  button.addEventListener('click', onClick);
  return button;
}

/** A text button (vscode-button), secondary unless told. */
export function button(id: string, label: string, onClick: () => void, appearance: 'primary' | 'secondary' = 'secondary'): HTMLElement {
  const b = h('vscode-button', { id, appearance }, label);
  b.addEventListener('click', onClick);
  return b;
}

export interface Checkbox {
  readonly element: HTMLElement;
  checked: boolean;
}

/** A labelled check box (vscode-checkbox); `onChange` hears the new state. */
export function checkbox(id: string, label: string, title: string, onChange: (checked: boolean) => void): Checkbox {
  const box = h('vscode-checkbox', { id, title }, label) as HTMLElement & { checked?: boolean };
  box.addEventListener('change', () => onChange(Boolean(box.checked)));
  return {
    element: box,
    get checked() {
      return Boolean(box.checked);
    },
    set checked(v: boolean) {
      if (Boolean(box.checked) !== v) box.checked = v;
    },
  };
}
