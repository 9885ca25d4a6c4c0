// One user intent, one Idempotency-Key: the key is made before the first click and sent again by every attempt at the
// same intent, so a double click, or a click again after an answer was lost, changes stock once. While a request is
// on its way the control is disabled and further clicks are ignored. After a definite answer (any answer but a
// failure of the service or the network) the next click is a new intent with a new key.

import { ApiProblem, newKey } from './api.js';
import { say } from './dom.js';

/** Wraps perform(key) as an event handler for a button's click or a form's submit. */
export function intent(perform, control) {
  let key = newKey();
  let busy = false;
  return async (event) => {
    event?.preventDefault();
    if (busy) return;
    busy = true;
    const target = control || event?.submitter || event?.currentTarget;
    setBusy(target, true);
    try {
      await perform(key);
      key = newKey();
    } catch (e) {
      if (definite(e)) key = newKey();
      say(explain(e), 'error');
    } finally {
      busy = false;
      setBusy(target, false);
    }
  };
}

function setBusy(control, busy) {
  if (!control || !('disabled' in control)) return;
  control.disabled = busy;
  if (busy) control.setAttribute('aria-busy', 'true');
  else control.removeAttribute('aria-busy');
}

/** Whether the service answered for certain: a refusal it stored, not a lost answer, a 5xx or a request still running. */
export function definite(error) {
  return error instanceof ApiProblem && error.status < 500 && error.slug !== 'idempotency-request-in-progress'
    && error.status !== 408 && error.status !== 429;
}

export function explain(error) {
  if (error instanceof ApiProblem) return error.describe();
  if (!(error instanceof TypeError)) return error.message;
  return `No answer from the service (${error.message}); the same click sends the same key, so trying again is safe.`;
}
