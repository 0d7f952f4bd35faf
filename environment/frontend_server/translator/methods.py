"""Only the methods the pages and endpoints use: GET and HEAD for pages, POST for the JSON
endpoints. Anything else (TRACE, PUT, DELETE, ...) is answered 405 before any view runs."""

from __future__ import annotations

from django.http import HttpResponseNotAllowed

ALLOWED = ("GET", "HEAD", "POST")


class AllowedMethods:
    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        if request.method not in ALLOWED:
            return HttpResponseNotAllowed(ALLOWED)
        return self.get_response(request)
