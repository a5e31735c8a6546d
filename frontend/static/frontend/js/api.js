// One small function per endpoint of the JSON API (docs/api.md).  Errors carry the HTTP status
// and the body, so callers can tell a refusal (422) from a stale sequence number (409).
export class ApiError extends Error {
  constructor(status, body) {
    super((body && (body.reason || body.detail || body.error)) || `HTTP ${status}`);
    this.status = status;
    this.body = body || {};
  }
}

function csrf() {
  const m = document.cookie.match(/(?:^|;\s*)csrftoken=([^;]*)/);
  return m ? decodeURIComponent(m[1]) : '';
}

async function call(method, url, body, signal) {
  const headers = { Accept: 'application/json' };
  if (body !== undefined) headers['Content-Type'] = 'application/json';
  if (method !== 'GET') headers['X-CSRFToken'] = csrf();
  return read(fetch(url, {
    method, headers, signal, credentials: 'same-origin',
    body: body === undefined ? undefined : JSON.stringify(body),
  }));
}

// A fetch's answer as call() gives it: the JSON body, or an ApiError.  Also for the request
// the table page makes before its modules load (flow.js, frontend/start.js).
export async function read(answer) {
  const res = await answer;
  let data = null;
  if (res.status !== 204) { try { data = await res.json(); } catch { data = null; } }
  if (!res.ok) throw new ApiError(res.status, data);
  return data;
}

const S = (id) => `/api/sessions/${encodeURIComponent(id)}/`;

export const me = () => call('GET', '/api/me/');
export const daily = () => call('GET', '/api/daily/');
export const createSession = (game, deal) => call('POST', '/api/sessions/', { game, deal });
export const getSession = (id) => call('GET', S(id));
// Each operation on a session and its path under the session (games/play/dispatch.py,
// OPERATIONS: the same names as the socket's message types).
export const OPERATIONS = Object.freeze({ move: 'moves/', undo: 'undo/', finish: 'finish/', resign: 'resign/', hint: 'hint/' });
// An operation over HTTP: its body holds the socket message's fields (seq, move, op).
export const operate = (kind, id, body, signal) => call('POST', S(id) + OPERATIONS[kind], body, signal);
export const hint = (id, seq, signal) => operate('hint', id, { seq }, signal);
export const share = (id) => call('GET', S(id) + 'share/');
export const replay = (id) => call('GET', S(id) + 'replay/');
export const analysis = (id) => call('GET', S(id) + 'analysis/');
export const leaderboard = (game, date, offset = 0) => call('GET', `/api/leaderboards/${game}/${date}/` + (offset ? `?offset=${offset}` : ''));
export const archive = (game, month) => call('GET', `/api/archive/${game}/?month=${month}`);
export const allTime = (game) => call('GET', `/api/leaderboards/${game}/all-time/`);
export const rename = (name) => call('PATCH', '/api/me/', { display_name: name });
export const setAnonymous = (anonymous) => call('PATCH', '/api/me/', { anonymous });
export const setHideFromRace = (hide) => call('PATCH', '/api/me/', { hide_from_race: hide });
export const signUp = (username, password, email) => call('POST', '/api/auth/signup/', { username, password, email: email || '' });
export const setEmail = (email, password) => call('PUT', '/api/me/email/', { email, password });
export const signIn = (username, password) => call('POST', '/api/auth/signin/', { username, password });
export const signOut = () => call('POST', '/api/auth/signout/', {});
export const deleteMe = (password) => call('DELETE', '/api/me/', password ? { password } : { confirm: true });
export const stats = () => call('GET', '/api/me/stats/');
export const reviews = () => call('GET', '/api/me/reviews/');
