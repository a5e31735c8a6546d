"""The site's settings with one more static folder, ahead of the apps' own: a test puts a
changed module there to deploy it without touching the tree (tests/frontend/test_static.py)."""

import os

from config.settings import *  # noqa: F403

STATICFILES_DIRS = [os.environ["STATIC_OVERLAY"]]
