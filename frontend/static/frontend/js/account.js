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
  document.getElementById('f-signout').hidden = me.guest;
  document.getElementById('f-email').hidden = me.guest;
  document.getElementById('acct-email').textContent = me.email
    ? t('email_is').replace('{email}', me.email) : t('no_email');
  document.querySelector('#f-email [name=email]').value = me.email || '';
  document.querySelector('#f-email [name=password]').value = '';
}

function form(id, fn) {
  document.getElementById(id).addEventListener('submit', async (e) => {
    e.preventDefault();
    const data = Object.fromEntries(new FormData(e.target));
    try {
      const me = await fn(data);
      if (me) render(me); else render(await api.me());
      show(t('saved'), true);
    } catch (err) {
      show(err.message, false);
    }
  });
}

form('f-rename', (d) => api.rename(d.name));
form('f-anonymous', (d) => api.setAnonymous(d.anonymous === 'on'));
form('f-race', (d) => api.setHideFromRace(d.hide_from_race === 'on'));
form('f-signup', (d) => api.signUp(d.username, d.password, d.email));
form('f-email', (d) => api.setEmail(d.email, d.password));
form('f-signin', (d) => api.signIn(d.username, d.password));
form('f-signout', () => api.signOut().then(() => null));

api.me().then(render, (e) => show(e.message, false));
