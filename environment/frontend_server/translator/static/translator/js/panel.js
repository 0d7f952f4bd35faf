/* The page around the canvas: persona cards, the clock, play/pause, status line. */
(function () {
  "use strict";

  function byId(id) { return document.getElementById(id); }

  function setText(id, text) {
    const el = byId(id);
    if (el) el.textContent = text;
  }

  function showPersona(key, rec) {
    if (!rec) return;
    const desc = typeof rec.description === "string" ? rec.description : "";
    const at = desc.indexOf("@");
    setText("current_action__" + key, (at >= 0 ? desc.slice(0, at) : desc).trim() || "…");
    setText("target_address__" + key, at >= 0 ? desc.slice(at + 1).trim() : "");
    if (rec.pronunciatio !== undefined) setText("quick_emoji-" + key, rec.pronunciatio || "");
    const chat = byId("chat__" + key);
    if (!chat) return;
    chat.replaceChildren();
    if (Array.isArray(rec.chat) && rec.chat.length) {
      for (const line of rec.chat) {
        if (!Array.isArray(line) || line.length !== 2) continue;
        const div = document.createElement("div");
        const who = document.createElement("strong");
        who.textContent = String(line[0]) + ": ";
        div.append(who, document.createTextNode(String(line[1])));
        chat.append(div);
      }
    } else {
      const em = document.createElement("em");
      em.textContent = "none at the moment";
      chat.append(em);
    }
  }

  function status(text) { setText("status", text || ""); }
  function time(text) { setText("game-time-content", text); }
  function step(n) { setText("step-content", String(n)); }

  function wire(world) {
    for (const card of document.querySelectorAll(".persona-card")) {
      card.addEventListener("click", (ev) => {
        if (ev.target.closest("a")) return;
        for (const c of document.querySelectorAll(".persona-card")) c.classList.remove("focused");
        card.classList.add("focused");
        world.focus = card.dataset.persona;
      });
    }
    const play = byId("play_button"), pause = byId("pause_button");
    // Pause stops the agents, not the scene: the camera still pans and zooms.
    if (play) play.addEventListener("click", () => { world.paused = false; });
    if (pause) pause.addEventListener("click", () => { world.paused = true; });
  }

  window.ReveriePanel = { showPersona: showPersona, status: status, time: time, step: step, wire: wire };
})();
