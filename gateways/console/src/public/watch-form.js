// The create-watch form: its choices come from the service (GET api/watches/options: marketplaces,
// condition types and interval bounds as the proto declares them); it builds the REST create body
// and puts each refusal next to its field.

import { $ } from './page.js';
import { CONDITIONS, intervalChoices, intervalText } from './watch-text.js';

const LOOKUP_HINTS = {
  asin: { label: 'ASIN', hint: '10 letters or digits, e.g. B0FXTUS001.', placeholder: 'B0FXTUS001' },
  url: { label: 'Product URL', hint: 'The product page’s https address; its host sets the marketplace.', placeholder: 'https://www.amazon.com/dp/B0FXTUS001' },
};

/** Where a refusal's path is shown: the body field → the form's error slot. */
const SLOTS = { asin: 'product', url: 'product', gtin: 'product', domain: 'domain', intervalSeconds: 'interval', conditions: 'conditions', webhook: 'webhook', label: 'label' };

function option(value, text, selected) {
  const element = document.createElement('option');
  element.value = value;
  element.textContent = text;
  element.selected = selected;
  return element;
}

function conditionRow(type) {
  const known = CONDITIONS[type];
  const row = document.createElement('div');
  row.className = 'condition';
  const box = document.createElement('input');
  box.type = 'checkbox';
  box.id = `condition-${type}`;
  box.name = 'condition';
  box.value = type;
  const label = document.createElement('label');
  label.htmlFor = box.id;
  label.textContent = known?.text ?? type;
  row.append(box, label);
  if (known?.value) {
    const input = document.createElement('input');
    input.type = 'number';
    input.id = `condition-${type}-value`;
    input.min = '0';
    input.step = known.value.step;
    if (known.value.max) input.max = known.value.max;
    input.disabled = true;
    input.dataset.conditionValue = type;
    const valueLabel = document.createElement('label');
    valueLabel.htmlFor = input.id;
    valueLabel.className = 'visually-hidden';
    valueLabel.textContent = `${known.value.label} for “${known.text}”`;
    box.addEventListener('change', () => {
      input.disabled = !box.checked;
      if (box.checked) input.focus();
    });
    row.append(valueLabel, input);
  }
  return row;
}

export function fillWatchForm(options) {
  $('watch-domain').replaceChildren(...options.domains.map((domain, i) => option(domain, domain, i === 0)));
  $('watch-interval').replaceChildren(
    ...intervalChoices(options.intervalSeconds).map((seconds) => option(String(seconds), intervalText(seconds), seconds === options.intervalSeconds.default)),
  );
  $('watch-condition-list').replaceChildren(...options.conditionTypes.map(conditionRow));
}

/** ASIN or URL: the product field's label and hint follow; a URL's host sets the marketplace. */
export function showLookup(kind) {
  const words = LOOKUP_HINTS[kind];
  $('watch-product-label').textContent = words.label;
  $('watch-product-hint').textContent = words.hint;
  $('watch-product').placeholder = words.placeholder;
  $('watch-product').inputMode = kind === 'url' ? 'url' : 'text';
  $('watch-domain').disabled = kind === 'url';
}

export function watchBody(form) {
  const kind = form.elements.lookup.value;
  const body = { [kind]: $('watch-product').value.trim(), intervalSeconds: Number($('watch-interval').value) };
  if (kind !== 'url') body.domain = $('watch-domain').value;
  body.conditions = [...form.querySelectorAll('input[name="condition"]:checked')].map((box) => {
    const valueInput = form.querySelector(`[data-condition-value="${box.value}"]`);
    return valueInput ? { type: box.value, value: valueInput.value === '' ? null : Number(valueInput.value) } : { type: box.value };
  });
  const webhook = $('watch-webhook').value.trim();
  if (webhook) body.webhook = { url: webhook };
  const label = $('watch-label').value.trim();
  if (label) body.label = label;
  return body;
}

export function clearWatchFormErrors(form) {
  for (const element of form.querySelectorAll('.field-error')) element.textContent = '';
  for (const input of form.querySelectorAll('[aria-invalid]')) input.removeAttribute('aria-invalid');
}

/** Each problem beside its field (REST paths may start with "body" or "query"); the rest on top. */
export function showWatchFormErrors(form, error) {
  clearWatchFormErrors(form);
  const general = [];
  for (const problem of error.errors?.length ? error.errors : [{ message: error.message }]) {
    const path = (problem.path ?? []).filter((part) => part !== 'body' && part !== 'query');
    const slot = SLOTS[path[0]];
    if (!slot) {
      general.push(problem.message);
      continue;
    }
    const errorSlot = $(`watch-${slot}-error`);
    errorSlot.textContent = errorSlot.textContent ? `${errorSlot.textContent} ${problem.message}` : problem.message;
    $(`watch-${slot}`)?.setAttribute('aria-invalid', 'true');
  }
  $('watch-error').textContent = general.join(' ');
  (form.querySelector('[aria-invalid="true"]') ?? $('watch-error')).focus?.();
}
