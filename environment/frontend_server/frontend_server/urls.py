"""The original's URLs, plus /runs/ and the asset and static file views."""

from django.urls import path, re_path

from translator.views import calls, demo, files, pages, path_tester, persona_state, protocol, replay, runs

urlpatterns = [
    path("", pages.landing, name="landing"),
    path("simulator_home", pages.home, name="home"),
    path("demo/<str:sim_code>/<str:step>/<str:play_speed>/", demo.demo, name="demo"),
    path("replay/<str:sim_code>/<str:step>/", replay.replay, name="replay"),
    path(
        "replay_persona_state/<str:sim_code>/<str:step>/<str:persona_name>/",
        persona_state.replay_persona_state,
        name="replay_persona_state",
    ),
    path("process_environment/", protocol.process_environment, name="process_environment"),
    path("update_environment/", protocol.update_environment, name="update_environment"),
    path("path_tester/", path_tester.path_tester, name="path_tester"),
    path("path_tester_update/", path_tester.path_tester_update, name="path_tester_update"),
    path("runs/", runs.runs_index, name="runs"),
    path("runs/<str:sim_code>/", runs.run_detail, name="run_detail"),
    path("runs/<str:sim_code>/calls/", calls.call_list, name="call_list"),
    path("runs/<str:sim_code>/calls/<int:number>/", calls.call_detail, name="call_detail"),
    path("assets/<path:relpath>", files.asset, name="asset"),
    re_path(r"^static/(?P<path>.+)$", files.static, name="static"),
]

handler400 = "translator.views.errors.bad_request"
handler404 = "translator.views.errors.not_found"
handler500 = "translator.views.errors.server_error"
