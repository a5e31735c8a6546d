// The table's one request, made while the page is still being read (inline in play.html,
// allowed by the page's nonce): the session this browser keeps for the deal, or a new one
// (the page's only side effect, as it always was).  flow.js takes the answer with api.read.
// With offline mode on no request is made here: the page may deal offline instead, and
// flow.js decides that as before.  Then the page's modules are asked for, all at once
// (modulepreload) rather than one wave of imports after another, and after the request,
// so that it is not queued behind them for one of the browser's few connections.
(() => {
  const { game, deal, modules } = document.currentScript.dataset;
  if (localStorage.getItem('ds:offline:on') !== '1') {
    const stored = localStorage.getItem(`ds:${game}:${deal}`);
    const m = document.cookie.match(/(?:^|;\s*)csrftoken=([^;]*)/);
    const headers = { Accept: 'application/json' };
    const ask = { headers, credentials: 'same-origin', priority: 'high' };
    if (!stored) {
      Object.assign(headers, { 'Content-Type': 'application/json', 'X-CSRFToken': m ? decodeURIComponent(m[1]) : '' });
      Object.assign(ask, { method: 'POST', body: JSON.stringify({ game, deal: /^\d+$/.test(deal) ? Number(deal) : deal }) });
    }
    const answer = fetch(stored ? `/api/sessions/${encodeURIComponent(stored)}/` : '/api/sessions/', ask);
    answer.catch(() => {}); // read, and its failure said, by flow.js
    window.solitaireStart = { game, deal, stored, answer };
  }
  for (const href of modules.split(' ')) {
    const link = document.createElement('link');
    link.rel = 'modulepreload';
    link.href = href;
    document.head.append(link);
  }
})();
