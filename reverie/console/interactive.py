"""`python -m reverie [server]`: the interactive simulation server of the original.

Asks which simulation to fork and the new name, prints a disclaimer, then reads commands
at ``Enter option:`` (see `help`). A bad command prints one line and the prompt returns.
"""

from __future__ import annotations

import argparse
import sys
import traceback

from reverie.console import printing
from reverie.console.commands import HELP, Command, parse_command, resolve_persona
from reverie.console.runner import DISCLAIMER, debug_log, run_steps
from reverie.errors import UserError
from reverie.llm.cassette_options import add_cassette_options, cassette_files
from reverie.llm.server_errors import BackendLost
from reverie.simulation.stop_signals import deferred, ending


def configure(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--fork", help="simulation to fork (asked when missing)")
    parser.add_argument("--sim", help="name of the new simulation (asked when missing)")
    parser.add_argument(
        "--command",
        action="append",
        default=[],
        metavar="TEXT",
        help='a command to run first, e.g. "run 3" (repeatable)',
    )
    parser.add_argument("--overwrite", action="store_true", help="replace an existing simulation of that name")
    parser.add_argument(
        "--headless", action="store_true", help="`run N` moves the agents itself instead of waiting for the browser"
    )
    add_cassette_options(parser)


def ask(prompt: str, default: str | None = None) -> str:
    shown = f"{prompt} [{default}]: " if default else f"{prompt}: "
    answer = input(shown).strip()
    return answer or (default or "")


def main(args, settings) -> int:
    from reverie.simulation.simulation import Simulation

    debug_log(settings.debug)
    fork = args.fork or ask("Enter the name of the forked simulation", settings.simulation.default_fork)
    name = args.sim or ask("Enter the name of the new simulation")
    if not name:
        raise UserError("a name for the new simulation is needed")
    cassette = cassette_files(args)
    sim = Simulation.fork(settings, fork, name, overwrite=args.overwrite, **cassette)
    sim.storage.announce(sim.step_no)
    print(DISCLAIMER)
    server = Server(sim, settings, headless=args.headless)
    return server.loop(args.command)


class Server:
    def __init__(self, sim, settings, *, headless: bool = False, out=None):
        self.sim = sim
        self.settings = settings
        self.headless = headless
        self.out = out or sys.stdout

    def say(self, text: str = "") -> None:
        print(text, file=self.out, flush=True)

    def loop(self, first_commands: list[str] | None = None) -> int:
        pending = list(first_commands or [])
        while True:
            if pending:
                line = pending.pop(0)
                self.say(f"Enter option: {line}")
            else:
                try:
                    line = input("Enter option: ")
                except EOFError:
                    self.say("\n(end of input: saving and finishing)")
                    line = "fin"
                except KeyboardInterrupt:
                    self.say("\n(Ctrl-C: saving and finishing)")
                    line = "fin"
            result = self.handle(line)
            if result is not None:
                return result
            if ending():  # SIGTERM or SIGHUP: nobody is at the prompt to type `fin`
                self.say("(asked to end: saving and finishing)")
                return self.handle("fin")

    def handle(self, line: str) -> int | None:
        """Run one command; return an exit code to leave the loop, None to stay."""
        try:
            command = parse_command(line)
            return self.dispatch(command)
        except UserError as exc:
            self.say(f"error: {exc}")
        except KeyboardInterrupt:
            self.say("\ninterrupted; back at the prompt")
        except Exception as exc:  # a command must never end the server
            if self.settings.debug:
                traceback.print_exc()
            self.say(
                f"error: {exc.__class__.__name__}: {exc} — the simulation is unchanged since the last complete step"
            )
        return None

    def persona(self, command: Command):
        name = resolve_persona(command.persona, list(self.sim.personas))
        return self.sim.personas[name]

    def dispatch(self, c: Command) -> int | None:
        sim = self.sim
        if c.name == "help":
            self.say(HELP)
        elif c.name == "fin":
            with deferred():  # a stop signal waits for the save
                sim.save()
                sim.close()
            self.say(f"saved {sim.storage.sim_code} at step {sim.step_no}")
            return 0
        elif c.name == "save":
            with deferred():
                sim.save()
            self.say(f"saved {sim.storage.sim_code} at step {sim.step_no}")
        elif c.name == "exit":
            sim.close()
            sim.delete()
            self.say(f"deleted {sim.storage.sim_code} (nothing saved)")
            return 0
        elif c.name == "run":
            if not self.headless:
                self.say(f"waiting for the browser at step {sim.step_no} (open the simulator page)...")
            try:
                run_steps(sim, c.number, headless=self.headless)
            except BackendLost:
                self.back_to_checkpoint()  # the step the server failed is not kept, in memory either
                raise
        elif c.name == "print_time":
            self.say(sim.curr_time_str)
            self.say(f"steps: {sim.step_no}")
        elif c.name == "print_schedule":
            self.say(printing.schedule(self.persona(c).scratch.f_daily_schedule))
        elif c.name == "print_hourly_schedule":
            self.say(printing.schedule(self.persona(c).scratch.f_daily_schedule_hourly_org))
        elif c.name == "print_all_schedules":
            for name, persona in sim.personas.items():
                self.say(name)
                self.say(printing.schedule(persona.scratch.f_daily_schedule))
                self.say("---")
        elif c.name == "print_tile":
            self.say(str(self.persona(c).scratch.curr_tile))
        elif c.name == "print_buffer":
            self.say(printing.buffer(self.persona(c).scratch))
        elif c.name == "print_memory":
            self.say(printing.memory(self.persona(c), c.kind))
        elif c.name == "print_spatial":
            self.say(printing.spatial_tree(self.persona(c).s_mem.tree))
        elif c.name in ("print_tile_event", "print_tile_details"):
            x, y = c.tile
            if not (0 <= x < sim.maze.width and 0 <= y < sim.maze.height):
                raise UserError(f"tile {x}, {y} is outside the map (0..{sim.maze.width - 1}, 0..{sim.maze.height - 1})")
            show = printing.tile_events if c.name == "print_tile_event" else printing.tile_details
            self.say(show(sim.maze, x, y))
        elif c.name == "load_history":
            from reverie.simulation.history import load_history

            path = self.settings.paths.assets / c.path
            counts = load_history(sim, path, warn=self.say, large=c.extra.get("large", False))
            self.say(", ".join(f"{n}: {k} memories" for n, k in counts.items()) or "no rows")
        elif c.name == "interview":
            from reverie.evaluation.interview import interview_loop

            interview_loop(sim, self.persona(c), say=self.say)
        elif c.name == "path_tester":
            return self.path_tester()
        return None

    def back_to_checkpoint(self) -> None:
        """The simulation as its last checkpoint has it (a step cut short left it half-way)."""
        from reverie.simulation.simulation import Simulation

        sim = self.sim
        sim.close()
        self.sim = Simulation.open(self.settings, sim.storage.sim_code, storage=sim.storage, llm=sim.llm, resume=True)
        self.say(f"back at the last checkpoint, step {self.sim.step_no}: `run` asks the model server again")

    def path_tester(self) -> int:
        from reverie.console.path_tester import path_tester_loop

        self.sim.close()
        self.sim.delete()
        self.say("path tester mode: the simulation folder was deleted; Ctrl-C to stop")
        try:
            path_tester_loop(self.sim.maze, self.settings.paths.temp_storage, say=self.say)
        except KeyboardInterrupt:
            self.say("\npath tester stopped")
        return 0
