// Rename, open data and race choices, sign up, sign in, the email, sign out: each form posts to its endpoint and says
// what happened.  (A forgotten password is reset on pages of their own: frontend/accounts.py.)
import * as api from './api.js';
import { announce, t } from './i18n.js';

const msg = document.getElementById('acct-msg');

function show(text, ok) {
  msg.hidden = false;
  msg.className = 'notice ' + (ok ? 'hint' : 'refusal');
  msg.textContent = text;
  announce(text);
}

function render(me) {
  document.getElementById('acct-name').textContent = me.display_name;
  document.querySelector('#f-rename [name=name]').value = me.display_name;
  document.querySelector('#f-anonymous [name=anonymous]').checked = me.anonymous;
  document.querySelector('#f-race [name=hide_from_race]').checked = me.hide_from_race;
  document.getElementById('f-signup').hidden = !me.guest;
  document.getElementById('f-signin').hidden = !me.guest;
  document.getElementById('f-signout').hidden = me.guest;
  document.getElementById('f-email').hidden = me.guest;
  document.getElementById('delete-password').hidden = me.guest;
  document.querySelector('#f-delete [name=password]').required = !me.guest;
  const lines = [me.email ? t('email_is').replace('{email}', me.email) : (me.email_pending ? '' : t('no_email'))];
  if (me.email_pending) lines.push(t('email_pending', { email: me.email_pending }));
  document.getElementById('acct-email').textContent = lines.filter(Boolean).join(' ');
  document.querySelector('#f-email [name=email]').value = me.email_pending || me.email || '';
  document.querySelector('#f-email [name=password]').value = '';
}

// `said(me, data)`: the sentence that says what the form did, from the player as it is now.
function form(id, fn, said) {
  document.getElementById(id).addEventListener('submit', async (e) => {
    e.preventDefault();
    const data = Object.fromEntries(new FormData(e.target));
    try {
      let me = await fn(data);
      if (!me) me = await api.me();
      render(me);
      show(said(me, data), true);
    } catch (err) {
      show(err.message, false);
    }
  });
}

const named = (key) => (me) => t(key, { name: me.username || me.display_name });
form('f-rename', (d) => api.rename(d.name), (me) => t('renamed', { name: me.display_name }));
form('f-anonymous', (d) => api.setAnonymous(d.anonymous === 'on'),
  (me) => t(me.anonymous ? 'anonymous_on' : 'anonymous_off'));
form('f-race', (d) => api.setHideFromRace(d.hide_from_race === 'on'),
  (me) => t(me.hide_from_race ? 'race_hidden' : 'race_shown'));
// A new address is pending until the link mailed to it is opened (the answer is the same
// whether another account has it: games/accounts/verification.py).
const pending = (me) => (me.email_pending ? ' ' + t('email_pending_saved', { email: me.email_pending }) : '');
form('f-signup', (d) => api.signUp(d.username, d.password, d.email),
  (me) => named('signed_up')(me) + pending(me));
form('f-email', (d) => api.setEmail(d.email, d.password),
  (me) => (me.email_pending ? pending(me).trim() : t(me.email ? 'email_saved' : 'email_removed')));
form('f-signin', (d) => api.signIn(d.username, d.password), named('signed_in'));
form('f-signout', () => api.signOut().then(() => null), () => t('signed_out'));
form('f-delete', (d) => api.deleteMe(d.password).then(() => null), () => t('deleted'));

api.me().then(render, (e) => show(e.message, false));
