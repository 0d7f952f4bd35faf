"""WSGI entry point (`python manage.py runserver` is the usual way to start)."""

import os

from django.core.wsgi import get_wsgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "frontend_server.settings")
application = get_wsgi_application()
