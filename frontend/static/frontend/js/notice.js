// The notice bar under the table: one line said now (a refusal, a hint, offline), or else
// the standing notice of the table (intents.js standing).  Exits are buttons naming a
// command (`data-exit`); play.js runs them, so this module needs none of the flow.
import { announce, t } from './i18n.js';
import { standing } from './intents.js';

export function say(st, text, kind = 'info', exits = null, sticky = false) {
  st.notice = { text, kind, exits };
  clearTimeout(st.noticeTimer);
  if (!sticky) st.noticeTimer = setTimeout(() => { st.notice = null; drawNotice(st); }, kind === 'refusal' ? 4000 : 6000);
  drawNotice(st);
  announce(text);
}

export function drawNotice(st) {
  const box = document.getElementById('notice');
  const still = standing(st);
  const stillText = still ? t(still.key) : '';
  // A standing notice (dead end, tap to finish) is announced once, when it appears.
  if (still && stillText !== st.announced && !st.notice) announce(stillText);
  st.announced = stillText;
  const n = st.notice || (still && { text: stillText, kind: still.kind, exits: still.exits });
  box.replaceChildren();
  if (!n) { box.hidden = true; return; }
  box.hidden = false;
  box.className = 'notice ' + n.kind;
  const span = document.createElement('span');
  span.textContent = n.text;
  box.append(span);
  for (const name of n.exits || []) {
    const b = document.createElement('button');
    b.type = 'button';
    b.textContent = t(name);
    b.dataset.exit = name;
    box.append(b);
  }
}
