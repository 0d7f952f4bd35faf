/* The shared Phaser scene: the Tiled map, the agents with their emoji bubbles, the camera.
 * Pages call ReverieWorld.start(config, {onCreate, onUpdate}); the config comes from the
 * view as JSON (<script id="game-config">). window.reverie exposes positions for tests. */
(function () {
  "use strict";

  const DIRS = ["down", "left", "right", "up"];
  const CAMERA_SPEED = 400; // px per second
  const MIN_ZOOM = 0.25, MAX_ZOOM = 3;
  const SPRITE_SIZE = 40;   // displayed width of a 32 px sprite frame

  function readConfig() {
    return JSON.parse(document.getElementById("game-config").textContent);
  }

  class Agent {
    constructor(scene, persona, cfg) {
      this.name = persona.name;
      this.key = persona.underscore;
      this.initials = persona.initials;
      this.tileSize = cfg.tile_size;
      this.tile = persona.tile ? persona.tile.slice() : null;
      this.target = null;
      this.dir = "down";
      this.moving = false;
      const [px, py] = this.pixel(this.tile || [0, 0]);
      this.hasAtlas = scene.textures.exists("agent_" + this.key);
      const tex = this.hasAtlas ? "agent_" + this.key : "agent_dot";
      this.sprite = scene.add.sprite(px, py, tex, this.hasAtlas ? "down" : undefined);
      this.sprite.setOrigin(0.5, 1).setDepth(1);
      this.sprite.setScale(SPRITE_SIZE / 32);
      this.sprite.setVisible(Boolean(this.tile));
      if (this.hasAtlas) {
        for (const dir of DIRS) {
          const animKey = this.key + "-" + dir + "-walk";
          if (!scene.anims.exists(animKey)) {
            scene.anims.create({
              key: animKey,
              frames: scene.anims.generateFrameNames("agent_" + this.key,
                { prefix: dir + "-walk.", start: 0, end: 3, zeroPad: 3 }),
              frameRate: 4,
              repeat: -1,
            });
          }
        }
      }
      this.bubble = scene.textures.exists("bubble")
        ? scene.add.image(0, 0, "bubble").setDisplaySize(130, 58).setDepth(3) : null;
      this.label = scene.add.text(0, 0, this.initials + ": 🙂", {
        fontFamily: "monospace", fontSize: "22px", color: "#000000",
        backgroundColor: this.bubble ? null : "#ffffff", padding: this.bubble ? 0 : { x: 6, y: 4 },
      }).setOrigin(0, 0.5).setDepth(4);
      this.sync();
    }

    pixel(tile) {
      return [tile[0] * this.tileSize + this.tileSize / 2, tile[1] * this.tileSize + this.tileSize];
    }

    setLabel(emoji) {
      this.label.setText(this.initials + ": " + (emoji || ""));
    }

    setTarget(tile) {
      if (!Array.isArray(tile) || tile.length !== 2) return;
      if (!this.tile) {           // first sighting: appear in place
        this.tile = tile.slice();
        const [px, py] = this.pixel(tile);
        this.sprite.setPosition(px, py).setVisible(true);
      }
      this.target = tile.slice();
    }

    stepToward(speed) {
      if (!this.target) return this.idle();
      const [tx, ty] = this.pixel(this.target);
      const s = this.sprite;
      let dir = null;
      if (Math.abs(s.x - tx) > 0.01) {
        dir = s.x < tx ? "right" : "left";
        s.x = s.x < tx ? Math.min(s.x + speed, tx) : Math.max(s.x - speed, tx);
      } else if (Math.abs(s.y - ty) > 0.01) {
        dir = s.y < ty ? "down" : "up";
        s.y = s.y < ty ? Math.min(s.y + speed, ty) : Math.max(s.y - speed, ty);
      }
      if (dir === null) return this.idle();
      if (this.hasAtlas && (!this.moving || dir !== this.dir)) s.anims.play(this.key + "-" + dir + "-walk", true);
      this.dir = dir;
      this.moving = true;
      this.sync();
    }

    idle() {
      if (this.moving && this.hasAtlas) {
        this.sprite.anims.stop();
        this.sprite.setFrame(this.dir);
      }
      this.moving = false;
      this.sync();
    }

    snap() {
      if (this.target) {
        const [px, py] = this.pixel(this.target);
        this.sprite.setPosition(px, py);
        this.tile = this.target.slice();
      }
      this.idle();
    }

    sync() {
      const x = this.sprite.x, top = this.sprite.y - SPRITE_SIZE;
      if (this.bubble) this.bubble.setPosition(x + 58, top - 22);
      this.label.setPosition(x + 2, top - 28);
      const visible = this.sprite.visible;
      this.label.setVisible(visible);
      if (this.bubble) this.bubble.setVisible(visible);
    }
  }

  /* WebGL if every tileset image fits in a texture, else Canvas (tall furniture sheets
   * exceed the limit of software WebGL). */
  function pickRenderer(largest) {
    try {
      const gl = document.createElement("canvas").getContext("webgl");
      if (!gl) return Phaser.CANVAS;
      const max = gl.getParameter(gl.MAX_TEXTURE_SIZE);
      const lose = gl.getExtension("WEBGL_lose_context");
      if (lose) lose.loseContext();
      return largest > max ? Phaser.CANVAS : Phaser.WEBGL;
    } catch (e) {
      return Phaser.CANVAS;
    }
  }

  function start(cfg, hooks) {
    hooks = hooks || {};
    const world = { cfg: cfg, agents: {}, scene: null, game: null, focus: null, paused: false, ready: false };

    function preload() {
      this.load.tilemapTiledJSON("map", cfg.map_url);
      for (const ts of cfg.tilesets) this.load.image(ts.key, ts.url);
      if (cfg.atlas_url) {
        for (const [key, url] of Object.entries(cfg.sprites || {})) {
          this.load.atlas("agent_" + key, url, cfg.atlas_url);
        }
      }
      if (cfg.bubble_url) this.load.image("bubble", cfg.bubble_url);
    }

    function create() {
      const map = this.make.tilemap({ key: "map" });
      const tilesets = cfg.tilesets.map((ts) => map.addTilesetImage(ts.name, ts.key)).filter(Boolean);
      world.layers = {};
      for (const layer of cfg.layers) {
        const l = map.createLayer(layer.name, tilesets, 0, 0);
        if (l) { l.setDepth(layer.depth); world.layers[layer.name] = l; }
      }
      world.map = map;
      world.tilesets = tilesets;
      const g = this.make.graphics({ x: 0, y: 0, add: false });
      g.fillStyle(0x3355cc, 1).fillCircle(16, 16, 12);
      g.generateTexture("agent_dot", 32, 32);
      for (const p of cfg.personas) world.agents[p.underscore] = new Agent(this, p, cfg);

      const cam = this.cameras.main;
      cam.setBounds(0, 0, map.widthInPixels, map.heightInPixels);
      const first = Object.values(world.agents).find((a) => a.tile);
      if (first) cam.centerOn(first.sprite.x, first.sprite.y);
      else cam.centerOn(map.widthInPixels / 2, map.heightInPixels / 2);
      world.cursors = this.input.keyboard.createCursorKeys();
      dragAndPinch(this, cam);
      world.scene = this;
      if (hooks.onCreate) hooks.onCreate(this, world);
      world.ready = true;
    }

    // One finger (or the mouse) drags the camera; two fingers pinch to zoom; the wheel zooms.
    function dragAndPinch(scene, cam) {
      scene.input.addPointer(1);
      let spread = null;
      const zoomBy = (factor) => cam.setZoom(Phaser.Math.Clamp(cam.zoom * factor, MIN_ZOOM, MAX_ZOOM));
      scene.input.on("pointermove", (pointer) => {
        const down = scene.input.manager.pointers.filter((p) => p.isDown);
        if (down.length >= 2) {
          const d = Phaser.Math.Distance.Between(down[0].x, down[0].y, down[1].x, down[1].y);
          if (spread && d > 0) zoomBy(d / spread);
          spread = d;
          world.focus = null;
        } else if (pointer.isDown) {
          spread = null;
          cam.scrollX -= (pointer.x - pointer.prevPosition.x) / cam.zoom;
          cam.scrollY -= (pointer.y - pointer.prevPosition.y) / cam.zoom;
          world.focus = null;
        }
      });
      scene.input.on("pointerup", () => { spread = null; });
      scene.input.on("wheel", (pointer, objects, dx, dy) => zoomBy(dy > 0 ? 0.9 : 1.1));
    }

    function update(time, delta) {
      const cam = this.cameras.main;
      const c = world.cursors;
      const d = (CAMERA_SPEED * delta) / 1000;
      if (c.left.isDown || c.right.isDown || c.up.isDown || c.down.isDown) world.focus = null;
      if (c.left.isDown) cam.scrollX -= d;
      if (c.right.isDown) cam.scrollX += d;
      if (c.up.isDown) cam.scrollY -= d;
      if (c.down.isDown) cam.scrollY += d;
      if (world.focus && world.agents[world.focus]) {
        const s = world.agents[world.focus].sprite;
        cam.centerOn(s.x, s.y);
      }
      if (hooks.onUpdate && !world.paused) hooks.onUpdate(this, world, time, delta);
    }

    const container = document.getElementById("game-container");
    world.game = new Phaser.Game({
      type: pickRenderer(cfg.largest_image || 0),
      width: Math.min(1500, Math.max(280, container.clientWidth || 1200)),
      height: Math.min(800, Math.max(320, Math.round(window.innerHeight * 0.7))),
      parent: "game-container",
      pixelArt: true,
      backgroundColor: "#1d1d1d",
      scene: { key: "main", preload: preload, create: create, update: update },
      render: { preserveDrawingBuffer: true },
    });

    window.reverie = {
      world: world,
      positions: function () {
        const out = {};
        for (const [k, a] of Object.entries(world.agents)) {
          out[k] = { x: a.sprite.x, y: a.sprite.y, tile: a.tile, visible: a.sprite.visible, label: a.label.text };
        }
        return out;
      },
    };
    return world;
  }

  window.ReverieWorld = { readConfig: readConfig, start: start };
})();
