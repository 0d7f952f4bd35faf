/* Path tester: the camera's position (px) goes to /path_tester_update/ for the simulation's path tester. */
(function () {
  "use strict";
  const cfg = ReverieWorld.readConfig();
  const SEND_MS = 500;
  let last = -Infinity, inflight = false, sent = "";

  function setStatus(t) { const el = document.getElementById("status"); if (el) el.textContent = t; }

  ReverieWorld.start(cfg, {
    onCreate: (scene, w) => {
      if (cfg.collision_layer) {
        const l = w.map.createLayer(cfg.collision_layer, w.tilesets, 0, 0);
        if (l) l.setDepth(1).setAlpha(0.5);
      }
    },
    onUpdate: (scene, w, time) => {
      if (inflight || time - last < SEND_MS) return;
      const mid = scene.cameras.main.midPoint;
      const body = { camera: { maze: cfg.maze, x: Math.round(mid.x), y: Math.round(mid.y) } };
      const key = JSON.stringify(body);
      if (key === sent) return;
      inflight = true; last = time;
      fetch(cfg.urls.camera, {
        method: "POST", credentials: "same-origin",
        headers: { "Content-Type": "application/json", "X-CSRFToken": cfg.csrf }, body: key,
      }).then((r) => { if (r.ok) { sent = key; setStatus("camera at " + body.camera.x + ", " + body.camera.y); } })
        .catch(() => setStatus("Cannot reach the environment server."))
        .finally(() => { inflight = false; });
    },
  });
})();
