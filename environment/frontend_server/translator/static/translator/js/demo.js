/* The demo page: plays a compressed run embedded in the page (no server traffic).
 * all_movement[step] holds only the agents whose state changed; the others keep
 * their last state (the view merged everything before the start step). */
(function () {
  "use strict";
  const cfg = ReverieWorld.readConfig();
  const P = window.ReveriePanel;
  const all = JSON.parse(document.getElementById("demo-movement").textContent);
  const speed = cfg.play_speed || 2;                           // px per frame
  const FRAMES = Math.max(1, Math.round(cfg.tile_size / speed)); // frames per step
  const stepMs = (cfg.sec_per_step || 10) * 1000;
  let step = cfg.step, frame = 0, done = false;
  let clock = cfg.start_datetime ? new Date(cfg.start_datetime) : null;
  const byName = {};
  for (const p of cfg.personas) byName[p.name] = p.underscore;

  function showClock() {
    if (!clock) return;
    P.time(clock.toLocaleString(undefined, {
      weekday: "long", year: "numeric", month: "long", day: "numeric",
      hour: "2-digit", minute: "2-digit", second: "2-digit",
    }));
  }

  ReverieWorld.start(cfg, {
    onCreate: (scene, w) => { P.wire(w); showClock(); },
    onUpdate: (scene, w) => {
      if (done) return;
      const recs = all[String(step)];
      if (recs === undefined) {
        done = true;
        for (const a of Object.values(w.agents)) a.idle();
        P.status("End of the run.");
        return;
      }
      if (frame === 0) {
        for (const [name, rec] of Object.entries(recs)) {
          const key = byName[name];
          const agent = key && w.agents[key];
          if (!agent || !rec) continue;
          if (rec.movement) agent.setTarget(rec.movement);
          if (rec.pronunciatio !== undefined) agent.setLabel(rec.pronunciatio);
          P.showPersona(key, rec);
        }
      }
      for (const [name, key] of Object.entries(byName)) {
        const agent = w.agents[key];
        if (recs[name]) agent.stepToward(speed); else agent.idle();
      }
      frame += 1;
      if (frame >= FRAMES) {
        for (const a of Object.values(w.agents)) a.snap();
        frame = 0;
        step += 1;
        if (clock) clock = new Date(clock.getTime() + stepMs);
        P.step(step);
        showClock();
      }
      window.reverie.step = step;
    },
  });
  window.reverie.step = step;
})();
