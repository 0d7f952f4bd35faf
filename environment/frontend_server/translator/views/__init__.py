"""Views, one module per page family."""
