"""The project's own configuration of Django's contrib apps."""

from __future__ import annotations

from django.contrib.staticfiles.apps import StaticFilesConfig as DjangoStaticFilesConfig


class StaticFilesConfig(DjangoStaticFilesConfig):
    # The intents' Node tests and the package.json that tells Node the modules are ES
    # modules sit beside the modules they test (docs/frontend.md); they are not the site's,
    # so collectstatic leaves them out and nothing serves them.  Matched on the path
    # inside the static tree (a directory pattern would only see a directory's own name).
    # Redoc comes with the Swagger UI package and is not served.
    ignore_patterns = [
        *DjangoStaticFilesConfig.ignore_patterns,
        "frontend/js/tests/*",
        "frontend/js/package.json",
        "drf_spectacular_sidecar/redoc/*",
    ]
