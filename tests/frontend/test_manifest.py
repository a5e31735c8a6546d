"""The installed app as Chromium reads it: the web manifest parses without an error, has a
stable id, the page's language and a screenshot per form factor whose real size is the one
declared; every page names an apple-touch-icon that loads at 180x180."""

from __future__ import annotations

from typing import Any


def _size(t: Any, url: str) -> list[int]:
    return t.page.evaluate(
        """async (url) => {
        const img = new Image(); img.src = url; await img.decode();
        return [img.naturalWidth, img.naturalHeight];
    }""",
        url,
    )


def test_chromium_reads_the_manifest_with_id_lang_and_screenshots(new_table: Any) -> None:
    t = new_table(locale="fr-FR")
    t.page.goto(t.base + "/")
    cdp = t.page.context.new_cdp_session(t.page)
    got = cdp.send("Page.getAppManifest")
    assert got["url"].endswith("/manifest.webmanifest"), got["errors"]
    assert not got["errors"], got["errors"]
    manifest = t.api("/manifest.webmanifest")["body"]
    assert manifest["id"] == "/"
    assert manifest["lang"] == "fr"
    factors = {s["form_factor"]: s for s in manifest["screenshots"]}
    assert set(factors) == {"wide", "narrow"}
    for shot in factors.values():
        width, height = _size(t, t.base + shot["src"])
        assert f"{width}x{height}" == shot["sizes"]
        assert shot["label"]
        assert 320 <= min(width, height)
        assert max(width, height) <= 3840
        assert max(width, height) / min(width, height) <= 2.3  # what install dialogs take
    wide, narrow = ([int(n) for n in factors[f]["sizes"].split("x")] for f in ("wide", "narrow"))
    assert wide[0] > wide[1]
    assert narrow[0] < narrow[1]


def test_every_page_names_an_apple_touch_icon(new_table: Any) -> None:
    t = new_table()
    for path in ("/", "/play/freecell/", "/account/", "/no-such-page/"):
        t.page.goto(t.base + path)
        href = t.page.evaluate(
            "() => document.querySelector('link[rel=apple-touch-icon]')?.href || null"
        )
        assert href, path
        assert _size(t, href) == [180, 180]
