// The sign-in form: the token is pasted into a password field and sent once in a POST body;
// the field is cleared whatever the answer. Nothing is kept in storage or in the URL.
import { el } from './dom.js';
import { signIn } from './session.js';

export function signinView(root, note, onSignedIn) {
  const input = el('input', { id: 'token', name: 'token', type: 'password', required: true,
    autocomplete: 'off', spellcheck: 'false', 'aria-describedby': 'token-help' });
  const error = el('p', { id: 'signin-error', class: 'error', role: 'alert' });
  const form = el('form', { id: 'signin-form', class: 'signin' },
    el('h1', {}, 'Sign in'),
    note ? el('p', { class: 'note', id: 'signin-note' }, note) : null,
    el('label', { for: 'token' }, 'API token'), input,
    el('p', { id: 'token-help', class: 'help' },
      'Paste a token from the tokens file (bamel demo prints the path of its admin token file).'
      + ' It is sent once; the server answers with a session cookie that ends when you sign out'
      + ' or after 8 hours. The page does not store the token.'),
    el('button', { type: 'submit', id: 'signin' }, 'Sign in'), error);
  form.addEventListener('submit', async e => {
    e.preventDefault();
    const token = input.value.trim();
    input.value = '';
    error.textContent = '';
    try {
      onSignedIn(await signIn(token));
    } catch (err) {
      error.textContent = err.status === 401 ? 'That token is not valid.' : `Sign-in failed: ${err.message}`;
    }
  });
  root.replaceChildren(form);
  input.focus();
}
