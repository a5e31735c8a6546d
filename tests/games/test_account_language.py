"""The accounts' refusals are said in the player's language (games/locale): the same
reason in French for a browser that asks for French, in English for one that does not
(and for programs, which send no Accept-Language)."""

from __future__ import annotations

import json


def _post(c, path, data, language=None):
    extra = {"HTTP_ACCEPT_LANGUAGE": language} if language else {}
    return c.client.post(
        path, json.dumps(data), content_type="application/json", HTTP_X_CSRFTOKEN=c.csrf, **extra
    )


def test_a_wrong_password_and_a_bad_name_are_refused_in_french_for_a_french_browser(api):
    c = api()
    creds = {"username": "dorothee", "password": "wrong wrong 42"}
    assert _post(c, "/api/auth/signin/", creds).json()["reason"] == "wrong username or password"
    fr = _post(c, "/api/auth/signin/", creds, "fr-FR,fr;q=0.9")
    assert fr.status_code == 400
    assert fr.json()["reason"] == "nom d'utilisateur ou mot de passe incorrect"
    r = c.client.patch(
        "/api/me/",
        json.dumps({"display_name": "ab"}),
        content_type="application/json",
        HTTP_X_CSRFTOKEN=c.csrf,
        HTTP_ACCEPT_LANGUAGE="fr",
    )
    assert r.status_code == 400
    assert r.json()["reason"] == "un nom affiché compte de 3 à 24 caractères"
    assert c.get("/api/me/").json()["display_name"] == c.me["display_name"]  # nothing changed
