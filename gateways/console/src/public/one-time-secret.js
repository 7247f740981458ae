/**
 * A secret the server shows once (a new API key, a webhook's signing secret): shown selected and
 * copyable until the user dismisses it; dismissing (or signing out) drops the value from the page,
 * so after that it exists only where the user pasted it.
 */
import { $, copyFrom } from './page.js';

/** `ids`: the panel, its read-only input, the copy and dismiss buttons, the copy status; `focusAfter`: where focus goes on dismiss. */
export function oneTimeSecret(ids, focusAfter) {
  const hide = () => {
    $(ids.value).value = '';
    $(ids.panel).hidden = true;
  };
  $(ids.copy).addEventListener('click', async () => {
    $(ids.status).textContent = await copyFrom($(ids.value));
  });
  $(ids.dismiss).addEventListener('click', () => {
    hide();
    $(focusAfter).focus();
  });
  const show = (secret) => {
    $(ids.value).value = secret;
    $(ids.status).textContent = '';
    $(ids.panel).hidden = false;
    $(ids.value).focus();
    $(ids.value).select();
  };
  return { show, hide };
}
