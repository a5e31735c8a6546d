"""The operators' admin: players, deals and sessions, with replay, re-validation and
disqualification (``inspection``).  Django's autodiscovery imports this package; the
registrations live in ``registry``."""

from django.contrib import admin

from games.admin import deals, registry, review  # noqa: F401  (registers the models)

# The site's name, not Django's, on every admin page and its title.
admin.site.site_header = "Daily Solitaire administration"
admin.site.site_title = "Daily Solitaire admin"
admin.site.index_title = "Players, deals, sessions and boards"
