"""servestatic: small files that never change answered from memory (patch ``static_memory``).

ServeStatic's ASGI responder reads every file through its ``AsyncFile``, which starts a
thread pool (a new OS thread) for each file served: several times the CPU of the whole
answer for a module of a few KB.  ``SmallFiles.small`` answers a plain GET or HEAD of a
file whose content never changes (a hashed name, Pyodide's under its version) and whose
encoding sent is at most ``SMALL`` bytes from memory instead: each encoding is read once,
on its first request, and kept with its headers ready to send (a deploy's modules,
stylesheet and sprite, some hundreds of KB a process).  A conditional or range request, a
larger file or one that may change goes to ServeStatic as before.

Patches: nothing is replaced; ``config.static.StaticFiles`` (a ``ServeStaticASGI``) asks
``small`` first, which reads ServeStatic's table of files (``files``, ``StaticFile``) and
its ``get_path_and_headers`` and ``immutable_file_test``, and sends what its responder would.
Written for: servestatic 4.4.0 (config/tripwires.json).
Tripwires: ``servestatic`` (``ServeStaticASGI.__call__``, ``StaticFile.get_path_and_headers``,
``StaticFile.aget_response``, ``ServeStaticBase.immutable_file_test``, ``decode_path_info``
and the rest of its entries, which config/static.py relies on).
Off (``FRAMEWORK_PATCHES_OFF=static_memory``): every file through ServeStatic's responder.
Tested: tests/test_static_memory.py.
"""

from __future__ import annotations

from typing import Any

from servestatic.responders import StaticFile
from servestatic.utils import decode_path_info

# A file whose content never changes and whose encoding sent is at most this many bytes is
# answered from memory.
SMALL = 64 * 1024

Answer = tuple[list[tuple[bytes, bytes]], bytes]  # the ASGI headers and the body


def _read_small(path: str, headers: list[tuple[str, str | None]]) -> Answer | None:
    """The file's answer, ready to send, or None when it is over SMALL bytes."""
    size = next((int(v) for k, v in headers if k == "Content-Length" and v), SMALL + 1)
    if size > SMALL:
        return None
    with open(path, "rb") as f:  # blocking, but once per file and process, a few KB
        body = f.read()
    return [
        (k.lower().encode("latin-1"), v.encode("latin-1")) for k, v in headers if v is not None
    ], body


class SmallFiles:
    """Put ahead of ``ServeStaticASGI``: its ``small``."""

    files: dict[str, Any]
    pyodide: str | None
    immutable_file_test: Any

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        self._fixed: dict[str, bool] = {}  # URL: whether its content never changes
        self._answers: dict[str, Answer | None] = {}  # by file, None: too big
        super().__init__(*args, **kwargs)

    async def small(self, scope: Any, send: Any) -> bool:
        """Answer a plain GET or HEAD of a small file that never changes from memory; False
        for anything else (left to ServeStatic).

        Written here because ServeStatic's ASGI responder reads every file through its
        ``AsyncFile``, which starts a thread pool (a new OS thread) for each file served:
        several times the CPU of the whole answer for a module of a few KB.  Each encoding
        of such a file is read once, on its first request (a blocking read of at most SMALL
        bytes, once per file and process), and kept with its headers ready to send: a
        deploy's modules, stylesheet and sprite, some hundreds of KB a process.  A
        conditional or range request goes to ServeStatic as before."""
        url = decode_path_info(scope["path"])
        found = self.files.get(url)
        if not isinstance(found, StaticFile) or scope["method"] not in ("GET", "HEAD"):
            return False
        fixed = self._fixed.get(url)
        if fixed is None:
            fixed = self._fixed[url] = self.immutable_file_test("", url) or bool(
                self.pyodide and url.startswith(self.pyodide)
            )
        if not fixed:
            return False
        asked = {}
        for name, value in scope["headers"]:
            if name == b"accept-encoding":
                asked["HTTP_ACCEPT_ENCODING"] = value.decode("latin-1")
            elif name in (b"range", b"if-none-match", b"if-modified-since"):
                return False
        path, headers = found.get_path_and_headers(asked)
        if path not in self._answers:
            self._answers[path] = _read_small(path, headers)
        answer = self._answers[path]
        if answer is None:
            return False
        await send({"type": "http.response.start", "status": 200, "headers": answer[0]})
        await send(
            {"type": "http.response.body", "body": b"" if scope["method"] == "HEAD" else answer[1]}
        )
        return True
