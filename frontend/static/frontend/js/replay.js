// A game step by step (/replay/<session>/): the server sends every step's table as its
// player saw it (GET /api/sessions/<id>/replay/); this page only draws them in turn.
import * as api from './api.js';
import { announce, clock, page, t } from './i18n.js';
import { renderTable } from './table.js';

const $ = (id) => document.getElementById(id);
const root = $('table');
let steps = [];
let at = 0;
let timer = 0;

function show(i) {
  at = Math.max(0, Math.min(steps.length - 1, i));
  const step = steps[at];
  renderTable(root, { meta: page.game, s: { view: step.view }, sel: null, drag: null,
    hint: null, targets: new Set() });
  $('rp-step').textContent = `${at} / ${steps.length - 1}`;
  $('rp-up').textContent = step.cards_up;
  if ($('rp-score')) $('rp-score').textContent = step.score ?? '';
  $('rp-prev').disabled = $('rp-first').disabled = at === 0;
  $('rp-next').disabled = $('rp-last').disabled = at === steps.length - 1;
  if (step.move) announce(t('replay_step', { n: at, move: step.move }));
}

function play() {
  if (timer) { clearInterval(timer); timer = 0; $('rp-play').textContent = t('replay_play'); return; }
  if (at === steps.length - 1) show(0);
  $('rp-play').textContent = t('replay_pause');
  timer = setInterval(() => { if (at >= steps.length - 1) play(); else show(at + 1); }, 600);
}

async function start() {
  try {
    const r = await api.replay(page.session);
    steps = r.steps;
    $('rp-who').textContent = t('replay_of', { player: r.player, date: r.date || '', status: t('status_' + r.status) })
      + (r.time_ms != null ? ` · ${clock(r.time_ms)}` : '');
    // ?step=N opens at that step (the table's "where was it lost?" links the one before
    // the losing move).
    show(Number(new URLSearchParams(window.location.search).get('step')) || 0);
  } catch (e) {
    $('rp-error').hidden = false;
    $('rp-error').textContent = e.message;
    for (const id of ['rp-first', 'rp-prev', 'rp-play', 'rp-next', 'rp-last']) $(id).disabled = true;
  }
  document.body.dataset.ready = '1';
}

$('rp-first').addEventListener('click', () => show(0));
$('rp-prev').addEventListener('click', () => show(at - 1));
$('rp-next').addEventListener('click', () => show(at + 1));
$('rp-last').addEventListener('click', () => show(steps.length - 1));
$('rp-play').addEventListener('click', play);
document.addEventListener('keydown', (e) => {
  if (!steps.length || e.target.closest?.('button') && e.key === ' ') return;
  const go = { ArrowLeft: at - 1, ArrowRight: at + 1, Home: 0, End: steps.length - 1 }[e.key];
  if (go !== undefined) { e.preventDefault(); show(go); } else if (e.key === ' ') { e.preventDefault(); play(); }
});
window.addEventListener('resize', () => { if (steps.length) show(at); });
start();
