"""Friendly error pages and JSON errors: a sentence saying what to do, never a traceback."""

from __future__ import annotations

import functools
import logging

from django.http import JsonResponse
from django.shortcuts import render

from reverie.errors import UserError
from translator.bodies import BadBody
from translator.simfiles import BrokenFile
from translator.sources import NotFound

log = logging.getLogger(__name__)


def friendly(request, title: str, message: str, status: int, hint: str | None = None):
    return render(
        request,
        "errors/friendly.html",
        {"title": title, "message": message, "hint": hint},
        status=status,
    )


def page(view):
    """Turn the app's expected errors into friendly pages."""

    @functools.wraps(view)
    def wrapper(request, *args, **kwargs):
        try:
            return view(request, *args, **kwargs)
        except NotFound as exc:
            return friendly(request, "Not found", str(exc), 404)
        except BrokenFile as exc:
            log.warning("broken file: %s", exc)
            return friendly(
                request,
                "A file could not be read",
                str(exc),
                500,
                "The simulation may still be writing it; reload in a moment.",
            )
        except UserError as exc:  # e.g. a broken config.toml
            return friendly(request, "The settings cannot be used", str(exc), 500)

    return wrapper


def json_error(message: str, status: int) -> JsonResponse:
    return JsonResponse({"error": message}, status=status)


def endpoint(view):
    """Same for the JSON endpoints: errors come back as {"error": "..."}."""

    @functools.wraps(view)
    def wrapper(request, *args, **kwargs):
        if request.method != "POST":
            return json_error("use POST with a JSON body", 405)
        try:
            return view(request, *args, **kwargs)
        except BadBody as exc:
            return json_error(str(exc), 400)
        except NotFound as exc:
            return json_error(str(exc), 404)
        except (BrokenFile, UserError) as exc:
            return json_error(str(exc), 500)

    return wrapper


def not_found(request, exception=None):
    return friendly(
        request, "Not found", "There is no page at this address.", 404, "Start from the home page or the list of runs."
    )


def bad_request(request, exception=None):
    return friendly(request, "Bad request", "The request could not be understood.", 400)


def server_error(request):
    return friendly(
        request,
        "Something went wrong",
        "The server could not show this page.",
        500,
        "Check the server's console for the reason.",
    )


def csrf_failure(request, reason=""):
    if request.content_type == "application/json" or request.path.endswith(("_environment/", "_update/")):
        return json_error("missing or wrong CSRF token; reload the page", 403)
    return friendly(request, "Forbidden", "The form could not be verified. Reload the page and try again.", 403)
