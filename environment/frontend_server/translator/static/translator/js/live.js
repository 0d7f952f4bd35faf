/* Live ("simulate") and replay pages: the file protocol of the original (the browser is the clock).
 * update: ask /update_environment/ for movement/<step>.json until it exists;
 * execute: walk every agent one tile over frames_per_step frames, fill the panels;
 * process (live only): post the agents' tiles as environment/<step+1>.json, then update again.
 * Replay only reads (it never posts positions). One request at a time. */
(function () {
  "use strict";
  const cfg = ReverieWorld.readConfig();
  const P = window.ReveriePanel;
  const live = cfg.mode === "simulate";
  const FRAMES = Math.max(1, cfg.frames_per_step || 8);
  const POLL_MS = live ? 250 : 0;
  let step = cfg.step, phase = "update", inflight = false, lastPoll = -Infinity, frame = 0, data = null;
  let waitingSince = null, retryAt = 0;
  const RETRY_MS = 1000;  // after an error, wait before asking again

  function post(url, body) {
    return fetch(url, {
      method: "POST",
      credentials: "same-origin",
      headers: { "Content-Type": "application/json", "X-CSRFToken": cfg.csrf },
      body: JSON.stringify(body),
    });
  }

  function poll(time) {
    if (inflight || time - lastPoll < POLL_MS || Date.now() < retryAt) return;
    inflight = true;
    lastPoll = time;
    post(cfg.urls.update, { step: step, sim_code: cfg.sim_code })
      .then((r) => r.json().then((d) => ({ ok: r.ok, d: d })))
      .then(({ ok, d }) => {
        if (!ok) { P.status(d.error || "the server refused the request"); retryAt = Date.now() + RETRY_MS; return; }
        if (d["<step>"] === step) {
          data = d; phase = "execute"; frame = 0; waitingSince = null; P.status("");
        } else if (!live && cfg.last_step !== undefined && step > cfg.last_step) {
          phase = "done"; P.status("End of the recorded run.");
        } else {
          waitingSince = waitingSince || Date.now();
          if (Date.now() - waitingSince > 3000) {
            P.status(live ? "Waiting for the simulation server to compute step " + step +
              " (type run N at its prompt)…" : "Waiting for step " + step + "…");
          }
        }
      })
      .catch(() => { P.status("Cannot reach the environment server; retrying…"); retryAt = Date.now() + RETRY_MS; })
      .finally(() => { inflight = false; });
  }

  function execute(world) {
    const personas = (data && data.persona) || {};
    if (frame === 0) {
      for (const p of cfg.personas) {
        const rec = personas[p.name];
        const agent = world.agents[p.underscore];
        if (!rec || !agent) continue;
        agent.setTarget(rec.movement);
        agent.setLabel(rec.pronunciatio);
        P.showPersona(p.underscore, rec);
      }
      if (data.meta && data.meta.curr_time) P.time(data.meta.curr_time);
    }
    frame += 1;
    const speed = cfg.tile_size / FRAMES;
    for (const agent of Object.values(world.agents)) agent.stepToward(speed);
    if (frame >= FRAMES) {
      for (const agent of Object.values(world.agents)) agent.snap();
      step += 1;
      P.step(step);
      phase = live ? "process" : "update";
    }
  }

  function processEnv(world) {
    if (inflight || Date.now() < retryAt) return;
    const env = {};
    for (const p of cfg.personas) {
      const a = world.agents[p.underscore];
      if (a && a.tile) env[p.name] = { maze: cfg.maze, x: a.tile[0], y: a.tile[1] };
    }
    inflight = true;
    post(cfg.urls.process, { step: step, sim_code: cfg.sim_code, environment: env })
      .then((r) => {
        if (r.ok || r.status === 409) { phase = "update"; return; }
        retryAt = Date.now() + RETRY_MS;
        return r.json().then((d) => P.status(d.error || "the server refused the positions"));
      })
      .catch(() => { P.status("Cannot reach the environment server; retrying…"); retryAt = Date.now() + RETRY_MS; })
      .finally(() => { inflight = false; });
  }

  const world = ReverieWorld.start(cfg, {
    onCreate: (scene, w) => {
      P.wire(w);
      P.status(live ? "Connected; waiting for the simulation server…" : "");
    },
    onUpdate: (scene, w, time) => {
      if (phase === "update") poll(time);
      else if (phase === "execute") execute(w);
      else if (phase === "process") processEnv(w);
      window.reverie.step = step;
      window.reverie.phase = phase;
    },
  });
  window.reverie.step = step;
})();
