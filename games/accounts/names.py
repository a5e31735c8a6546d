"""A player's display name: what it may hold, what it looks like (its key: two names with
one key read alike, whatever their letters), names kept for the site, and the names a new
guest is given (docs/rules.md, "Players and accounts")."""

from __future__ import annotations

import functools
import re
import secrets

import icu
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from games.errors import PlayerError

NAME_RE = re.compile(r"^[\w .-]+$")  # letters (any script), digits, space, _ - .
USERNAME_RE = re.compile(r"^[A-Za-z0-9_.-]{3,30}$")

_ADJECTIVES = [
    "Brisk",
    "Calm",
    "Clever",
    "Lucky",
    "Nimble",
    "Quiet",
    "Swift",
    "Wise",
    "Bold",
    "Merry",
    "Patient",
    "Sly",
    "Steady",
    "Keen",
    "Jolly",
    "Sunny",
]
_NOUNS = [
    "Otter",
    "Heron",
    "Fox",
    "Badger",
    "Lynx",
    "Owl",
    "Marten",
    "Robin",
    "Hare",
    "Wren",
    "Falcon",
    "Seal",
    "Stoat",
    "Finch",
    "Beaver",
    "Crane",
]


NAME_TAKEN = gettext_lazy("that name is taken (or too close to one): pick another")
NAME_RESERVED = gettext_lazy("that name is kept for the site and its staff: pick another")

# TR39 skeletons come from ICU's spoof checker through PyICU, the binding kept up beside ICU
# for twenty years.  It builds against the system's ICU, so the confusables data is updated
# with the operating system (.ci/run installs libicu-dev).  The others fall short: icu4py
# has no spoof checker, pyicu-wheels is a young third-party repackaging that trails PyICU
# and bundles an ICU of its own, and confusable-homoglyphs has the data but no skeleton.
# ICU's checks on one configured checker are safe from many threads at once.
_SPOOF = icu.SpoofChecker()
_NFKC = icu.Normalizer2.getNFKCInstance()
_INVISIBLE_TYPES = frozenset(
    {
        icu.UCharCategory.CONTROL_CHAR,
        icu.UCharCategory.FORMAT_CHAR,
        icu.UCharCategory.PRIVATE_USE_CHAR,
        icu.UCharCategory.SURROGATE,
        icu.UCharCategory.UNASSIGNED,
    }
)
_SEPARATORS = " _.-"  # what NAME_RE allows besides letters and digits
_NO_SEPARATORS = str.maketrans("", "", _SEPARATORS)
_KEY_LENGTH = 255  # Player.name_key's max_length; a name's key is at most a few times longer


def _invisible(ch: str) -> bool:
    cp = ord(ch)  # a code point, not a string: a lone surrogate is no valid ICU string
    return (
        icu.Char.hasBinaryProperty(cp, icu.UProperty.DEFAULT_IGNORABLE_CODE_POINT)
        or icu.Char.charType(cp) in _INVISIBLE_TYPES
    )


def _folded_skeleton(text: str) -> str:
    # Again until it settles: a skeleton may hold capitals ("0" becomes "O"), which must
    # fold like any other.
    for _round in range(8):
        skeleton = _SPOOF.getSkeleton(0, text.casefold())
        if skeleton == text:
            break
        text = skeleton
    return text


@functools.lru_cache(maxsize=4096)
def _looks_like(ch: str) -> str:
    """A capital whose small letter reads as something else (Greek "Κ" reads as "K", its
    "κ" does not) counts as what it looks like, so "ΚΙΜ" in Greek capitals is "KIM"."""
    if ch.isascii() or ch == ch.casefold():
        return ch
    skeleton = _SPOOF.getSkeleton(0, ch)
    return skeleton if _folded_skeleton(skeleton) != _folded_skeleton(ch) else ch


def name_key(name: str) -> str:
    """What a name looks like: two names with one key read alike.

    The Unicode TR39 skeleton (Cyrillic "А" is Latin "A", "rn" is "m", "0" is "O") of the
    case-folded name, without the separators a name may use, so "Ada L." and "ada_l" are
    one.  A capital "I" reads as "l" but folds to "i", so "i" and "l" are one letter here,
    or "PhiIip" would pass for "Philip"."""
    text = "".join(_looks_like(ch) for ch in _NFKC.normalize(name))
    return _folded_skeleton(text).replace("i", "l").translate(_NO_SEPARATORS)


# Matched on the key, word by word and run of words, with digits kept or dropped: "Admin1",
# "the_admin", "TheAdmin", "Ad Min", "R00T" and "Аdmin" with a Cyrillic "А" are all refused.
_RESERVED = (
    "admin",
    "administrator",
    "moderator",
    "mod",
    "staff",
    "support",
    "system",
    "sysadmin",
    "root",
    "superuser",
    "operator",
    "webmaster",
    "official",
    "daily solitaire",
    "solitaire",
)
_RESERVED_KEYS = frozenset(name_key(word) for word in _RESERVED)


def _words(name: str, keep_digits: bool) -> list[str]:
    words, word = [], ""
    for ch in name:
        boundary = ch in _SEPARATORS or ch.isspace() or (not keep_digits and ch.isdigit())
        if boundary or (word and word[-1].islower() and ch.isupper()):  # camelCase too
            if word:
                words.append(word)
            word = "" if boundary else ch
        else:
            word += ch
    return [*words, word] if word else words


def is_reserved(name: str) -> bool:
    for keep_digits in (True, False):
        words = _words(name, keep_digits)
        for i in range(len(words)):
            for j in range(i + 1, len(words) + 1):
                if name_key("".join(words[i:j])) in _RESERVED_KEYS:
                    return True
    return False


def generated_name(digits: int = 3) -> str:
    number = secrets.randbelow(10**digits)
    return f"{secrets.choice(_ADJECTIVES)} {secrets.choice(_NOUNS)} {number:0{digits}d}"


def clean_display_name(value: object) -> str:
    """The name as it will be shown (NFKC, single spaces), or PlayerError saying why not.
    Whether another player's name looks the same is for ``rename`` to find out."""
    if not isinstance(value, str):
        raise PlayerError(_("display_name must be a string"))
    name = " ".join(value.split())  # tabs, newlines, no-break spaces: one plain space
    if any(_invisible(ch) for ch in name):
        raise PlayerError(_("a display name cannot hold invisible or control characters"))
    # "Ａｄａ" and "ﬁ" are shown as the "Ada" and "fi" they read as.
    name = " ".join(_NFKC.normalize(name).split())
    if any(_invisible(ch) for ch in name):
        raise PlayerError(_("a display name cannot hold invisible or control characters"))
    if not 3 <= len(name) <= 24:
        raise PlayerError(_("a display name has 3 to 24 characters"))
    if not NAME_RE.match(name) or not re.search(r"[^\W_]", name):
        raise PlayerError(
            _(
                "a display name uses letters, digits, spaces, '_', '-' and '.' "
                "(at least one letter or digit)"
            )
        )
    if len(name_key(name)) > _KEY_LENGTH:
        raise PlayerError(_("that name is too long once spelled out: pick a shorter one"))
    if is_reserved(name):
        raise PlayerError(str(NAME_RESERVED))
    return name
