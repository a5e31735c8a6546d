// A result to share, worded by the server (GET /api/sessions/<id>/share/: the same text for
// every client and page); the Web Share API sends it where the browser has one, else it is
// copied.  Answers 'shared', 'copied', 'cancelled' or 'failed'.
import * as api from './api.js';

export async function shareSession(id) {
  try {
    const { text } = await api.share(id);
    if (navigator.share) {
      try { await navigator.share({ text }); return 'shared'; } catch (e) {
        if (e.name === 'AbortError') return 'cancelled';  // the player closed the sheet
      }
    }
    await navigator.clipboard.writeText(text);
    return 'copied';
  } catch {
    return 'failed';
  }
}
