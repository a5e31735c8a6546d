"""The operators' admin: players, deals and sessions, with replay, re-validation and
disqualification (``inspection``).  Django's autodiscovery imports this package; the
registrations live in ``registry``."""

from games.admin import registry, review  # noqa: F401  (registers the models)
