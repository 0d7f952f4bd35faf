"""Set Django up once per test process, with the frontend's settings."""

from __future__ import annotations

import os
import sys

from reverie import PROJECT_ROOT

FRONTEND = PROJECT_ROOT / "environment" / "frontend_server"
_done = False


def setup() -> None:
    global _done
    if _done:
        return
    if str(FRONTEND) not in sys.path:
        sys.path.insert(0, str(FRONTEND))
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "frontend_server.settings")
    import django
    from django.test.utils import setup_test_environment

    django.setup()
    setup_test_environment()
    _done = True
