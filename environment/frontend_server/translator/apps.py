from django.apps import AppConfig


class TranslatorConfig(AppConfig):
    name = "translator"
    verbose_name = "Reverie environment server"
