"""Django settings of the environment server.

Paths come from the same config.toml as the simulation (`[paths]`, read through
`reverie.config.load_settings`); DEBUG follows `[frontend] debug` (off by default). No database.
"""

from __future__ import annotations

import sys
from pathlib import Path

from django.core.exceptions import ImproperlyConfigured

BASE_DIR = Path(__file__).resolve().parent.parent
PROJECT_ROOT = BASE_DIR.parent.parent
if str(PROJECT_ROOT) not in sys.path:
    sys.path.insert(0, str(PROJECT_ROOT))

from reverie.config import load_settings  # noqa: E402
from reverie.errors import UserError  # noqa: E402

from frontend_server.secret_key import load_or_create  # noqa: E402

try:
    _REVERIE = load_settings(check_files=False)
except UserError as exc:
    raise ImproperlyConfigured(str(exc)) from None

DEBUG = _REVERIE.frontend.debug  # not the simulation's `debug`: off unless asked for
SECRET_KEY = load_or_create(BASE_DIR / "secret_key.txt")
ALLOWED_HOSTS = ["localhost", "127.0.0.1", "[::1]"]

INSTALLED_APPS = [
    "django.contrib.staticfiles",
    "translator",
]

MIDDLEWARE = [
    "translator.methods.AllowedMethods",
    "django.middleware.security.SecurityMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
]

ROOT_URLCONF = "frontend_server.urls"
WSGI_APPLICATION = "frontend_server.wsgi.application"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
            ],
        },
    },
]

# Nothing is stored in a database; an in-memory one keeps `manage.py migrate` harmless.
DATABASES = {"default": {"ENGINE": "django.db.backends.sqlite3", "NAME": ":memory:"}}

# The JSON endpoints answer a 403 in JSON; pages get the friendly error page.
CSRF_FAILURE_VIEW = "translator.views.errors.csrf_failure"
CSRF_COOKIE_SAMESITE = "Strict"
SESSION_COOKIE_SAMESITE = "Strict"
SECURE_CONTENT_TYPE_NOSNIFF = True
X_FRAME_OPTIONS = "DENY"
DATA_UPLOAD_MAX_MEMORY_SIZE = 1024 * 1024

STATIC_URL = "/static/"
# Phaser comes from npm (`npm ci` in this folder); our own scripts live in the app.
STATICFILES_DIRS = [("vendor/phaser", BASE_DIR / "node_modules" / "phaser" / "dist")]

LANGUAGE_CODE = "en-us"
TIME_ZONE = "UTC"
USE_I18N = False
USE_TZ = False

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "handlers": {"console": {"class": "logging.StreamHandler"}},
    "loggers": {"django": {"handlers": ["console"], "level": "WARNING"}},
}
