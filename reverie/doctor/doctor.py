"""`python -m reverie doctor`: check the configured model and the rest before a long run.

One line per check, ✓ or ✗; a failing check names the one thing to fix, and the command
exits non-zero when any check fails:

- the model file loads (how many layers are on the GPU), or the server answers;
- the GPU: the backends llama.cpp was built for, the devices it sees (free memory), the layers
  of each role on them; ✗ when a role asks GPU layers (``n_gpu_layers``) that did not land there,
  or a model that failed to load would not fit the device (how many layers would);
- the chat-template family, and how the system text reaches the model;
- ``n_ctx`` against the largest prompt at a long run's memory size;
- a grammar-constrained probe call, with prefill and decode tokens/s;
- the prompt cache reuses a prefix;
- the peak resident memory to expect (weights, KV cache, prompt cache, margin);
- embeddings and Chroma are ready;
- storage is writable.
"""

from __future__ import annotations

import json
import shutil
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from reverie.config import Settings
from reverie.doctor import doctor_gpu
from reverie.errors import UserError

LONG_RUN_LINES = 5000  # memories in a persona after a long run (several game days)
PROBE_PROMPT = "wake_up_hour"


@dataclass
class Check:
    name: str
    ok: bool
    detail: str
    fix: str = ""

    def line(self) -> str:
        mark = "✓" if self.ok else "✗"
        fix = f" — fix: {self.fix}" if not self.ok and self.fix else ""
        return f"{mark} {self.name}: {self.detail}{fix}"


def configure(parser) -> None:
    parser.add_argument("--json", action="store_true", help="also write the checks as JSON to stdout's last line")


class Doctor:
    """The checks, in order; a check that cannot run because an earlier one failed is skipped."""

    def __init__(self, settings: Settings):
        from reverie.llm import LLM
        from reverie.tasks.registry import product_tasks

        self.settings = settings
        self.folder = Path(tempfile.mkdtemp(prefix="reverie-doctor-"))
        self.llm = LLM(settings, tasks=product_tasks(), ledger_path=self.folder / "llm_calls.jsonl")
        self.checks: list[Check] = []

    # -- the model -------------------------------------------------------------------------

    def model_loads(self) -> Check:
        from reverie.llm.models import ROLES, model_path

        try:
            models = {role: self.llm._model(role) for role in ROLES}
        except UserError as exc:
            text = str(exc)
            fix = text.split(" — ", 1)[1] if " — " in text else "see the message"
            return Check("model", False, text.split(" — ", 1)[0], doctor_gpu.fit_hint(self.settings) or fix)
        if self.settings.backend.kind.server and len(self.settings.backend.endpoints()) > 1:
            return self.servers(models["strong"])
        if self.settings.backend.kind.server:
            return Check(
                "model",
                True,
                f"the server at {self.settings.backend.base_url} is configured "
                f"(model {self.settings.models.strong.server_model!r})",
            )
        parts = []
        for role, model in models.items():
            settings = getattr(self.settings.models, role)
            parts.append(f"{role} {model_path(settings).name} ({model.placement.summary()}, n_ctx {settings.n_ctx})")
        return Check("model", True, "; ".join(dict.fromkeys(parts)))

    def servers(self, model) -> Check:
        """Every server of [[backend.servers]]: what answers, its model and slots, the structured-output
        probe; a server that fails is named in one line."""
        from reverie.llm.server_errors import BackendLost

        said = []
        for url, session in zip(model.router.urls, model.router.sessions):
            try:
                said.append(session.check().line().removeprefix("[backend] "))
            except UserError as exc:
                text = str(exc)
                what = text.split(" — ", 1)[0]
                return Check(
                    "model",
                    False,
                    what if url in what else f"model server {url}: {what}",
                    "start it, or remove it from [[backend.servers]]"
                    if type(exc) is BackendLost
                    else text.split(" — ", 1)[-1],
                )
        return Check(
            "model", True, f"{len(said)} servers, {self.settings.backend.total_slots} slots: " + "; ".join(said)
        )

    def gpu(self) -> Check:
        if self.settings.backend.kind.server:
            return Check("gpu", True, "the server places the layers (llama-server: -ngl)")
        placements = {role: getattr(m, "placement", None) for role, m in (self.llm._models or {}).items()}
        verdict = doctor_gpu.check(self.settings, {r: p for r, p in placements.items() if p is not None})
        return Check("gpu", *verdict)

    def chat_template(self) -> Check:
        reports = {role: getattr(m, "template", None) for role, m in (self.llm._models or {}).items()}
        known = {role: r for role, r in reports.items() if r is not None}
        if not known:
            return Check("chat template", True, "rendered by the server (not checked here)")
        lines = dict.fromkeys(r.line().removeprefix("chat template: ") for r in known.values())
        return Check("chat template", True, "; ".join(lines))

    def context_window(self) -> Check:
        from reverie.llm.prompt_size import PromptTooLong
        from reverie.prompt_tools.fixtures import fixture_names, load_fixture

        worst: tuple[int, str] = (0, "")
        longest: tuple[int, int, str] = (0, 0, "")
        with_fixtures = set(fixture_names())
        for name, task in self.llm.tasks.items():
            if name not in with_fixtures:
                continue
            case = load_fixture(name).cases[0]
            try:
                usual = self.llm.chain.measure(name, case.inputs, choices=case.choices)
                grown = self.llm.chain.measure(name, long_run_inputs(case.inputs, task), choices=case.choices)
            except PromptTooLong as exc:
                return Check(
                    "context",
                    False,
                    f"prompt {name}: {exc}".split(" — ")[0],
                    f"raise [models.{self.llm.chain.prompts.get(name).role}] n_ctx",
                )
            worst = max(worst, (usual.prompt_tokens + self.llm.chain.max_tokens(name, choices=case.choices), name))
            if grown.trimmed_tokens:
                longest = max(longest, (grown.prompt_tokens + grown.trimmed_tokens, grown.prompt_tokens, name))
        n_ctx = min(self.settings.models.strong.n_ctx, self.settings.models.cheap.n_ctx)
        detail = f"n_ctx {n_ctx}: the largest prompt with its reply needs {worst[0]} tokens ({worst[1]})"
        if longest[2]:
            detail += (
                f"; with {LONG_RUN_LINES} memories, {longest[2]} would need {longest[0]} tokens "
                f"and its memories are cut to fit in {longest[1]}"
            )
        return Check("context", True, detail)

    def probe_call(self) -> Check:
        from reverie.prompt_tools.fixtures import load_fixture

        case = load_fixture(PROBE_PROMPT).cases[0]
        meter = _Throughput(self.llm)
        started = time.perf_counter()
        self.llm.ask(PROBE_PROMPT, case.inputs, choices=case.choices)
        seconds = time.perf_counter() - started
        line = self.llm.ledger.last or {}
        grammar = "with" if self.settings.repair.grammar else "without"
        speed = meter.describe(line, seconds)
        errors = line.get("errors") or []
        failed = [e for e in errors if "model call failed" in e or "not a valid JSON object" in e]
        if failed:
            return Check(
                "probe call",
                False,
                f"{PROBE_PROMPT} {grammar} grammar got no JSON answer ({failed[-1][:200]})",
                "check [backend], the model file and [repair] grammar",
            )
        if line.get("fallback"):
            # The call works; the answers broke the prompt's own rules (a quality matter, see `prompts eval`).
            return Check(
                "probe call",
                True,
                f"{PROBE_PROMPT} {grammar} grammar: the model answered {line.get('attempts')} "
                f"time(s) but broke the prompt's rules, so the fail-safe was used "
                f"(see `prompts eval`), {speed}",
            )
        return Check(
            "probe call",
            True,
            f"{PROBE_PROMPT} {grammar} grammar: valid after {line.get('attempts')} attempt(s), {speed}",
        )

    def prompt_cache(self) -> Check:
        from reverie.prompt_tools.fixtures import load_fixture

        if not self.settings.backend.prompt_cache:
            return Check(
                "prompt cache", True, "off ([backend] prompt_cache = false): every prompt is evaluated in full"
            )
        case = load_fixture(PROBE_PROMPT).cases[0]
        other = {**case.inputs, "first_name": f"{case.inputs.get('first_name', 'Sam')}ie"}
        self.llm.ask(PROBE_PROMPT, other, choices=case.choices)
        line = self.llm.ledger.last or {}
        cached, prompt = line.get("cached_tokens"), line.get("prompt_tokens") or 0
        if cached is None:
            return Check("prompt cache", True, "the server does not report reused tokens")
        if not cached:
            return Check(
                "prompt cache",
                False,
                f"no prompt token reused on a second call with the same prefix ({prompt} tokens)",
                "set [backend] prompt_cache = true, or start the server with its prompt cache on",
            )
        return Check("prompt cache", True, f"{cached} of {prompt} prompt tokens reused from the previous call")

    def peak_memory(self) -> Check:
        from reverie.doctor.doctor_peak import peak_memory

        return Check("peak memory", *peak_memory(self.settings, self.llm))

    # -- the rest ----------------------------------------------------------------------------

    def memory(self) -> Check:
        from reverie.memory.embedder import Embedder
        from reverie.memory.vector_index import VectorIndex

        try:
            embedder = Embedder(self.settings)
            vector = embedder.embed_one("Nora opens the cafe at seven")
            index = VectorIndex(self.settings, self.folder / "sim", sim_code="doctor")
            collection = index.persona("Doctor Probe")
            collection.upsert("node_1", vector, {"kind": "event"}, "Nora opens the cafe at seven")
            found = collection.query(vector, 1)
        except UserError as exc:
            text = str(exc)
            return Check("memory", False, text.split(" — ")[0], text.split(" — ", 1)[-1])
        if "node_1" not in found:
            return Check("memory", False, "Chroma did not return what was just stored", "check [chroma]")
        where = (
            f"server {self.settings.chroma.host}:{self.settings.chroma.port}"
            if index.mode == "server"
            else "persistent"
        )
        model = "all-MiniLM-L6-v2, bundled" if self.settings.embeddings.model == "bundled" else embedder.model_dir.name
        return Check("memory", True, f"embeddings ({model}, {len(vector)} dimensions) and Chroma ({where}) ready")

    def storage(self) -> Check:
        folder = Path(self.settings.paths.storage)
        try:
            folder.mkdir(parents=True, exist_ok=True)
            with tempfile.NamedTemporaryFile(dir=folder, prefix=".doctor-", delete=True) as fh:
                fh.write(b"ok")
                fh.flush()
        except OSError as exc:
            return Check(
                "storage",
                False,
                f"'{folder}' is not writable ({exc.strerror or exc})",
                "set [paths] storage to a writable folder",
            )
        return Check("storage", True, f"'{folder}' is writable")

    def run(self, say: Callable[[str], None] = print) -> list[Check]:
        model_steps = [
            ("model", self.model_loads),
            ("gpu", self.gpu),
            ("chat template", self.chat_template),
            ("context", self.context_window),
            ("probe call", self.probe_call),
            ("prompt cache", self.prompt_cache),
            ("peak memory", self.peak_memory),
        ]
        for name, step in model_steps:
            check = self._checked(name, step, say)
            if not check.ok and name == "model":
                break  # nothing else about the model can be checked
        for name, step in (("memory", self.memory), ("storage", self.storage)):
            self._checked(name, step, say)
        return self.checks

    def _checked(self, name: str, step: Callable[[], Check], say: Callable[[str], None]) -> Check:
        try:
            check = step()
        except UserError as exc:  # e.g. a prompt file that does not load
            text = str(exc)
            check = Check(name, False, text.split(" — ", 1)[0], text.split(" — ", 1)[-1])
        self.checks.append(check)
        say(check.line())
        return check


class _Throughput:
    """Prefill and decode tokens/s of the next call (llama.cpp's own counters in process)."""

    def __init__(self, llm):
        self.client = getattr(llm._models.get("cheap") if llm._models else None, "client", None)
        if self.client is not None:
            import llama_cpp

            llama_cpp.llama_perf_context_reset(self.client.ctx)

    def describe(self, line: dict, seconds: float) -> str:
        if self.client is not None:
            import llama_cpp

            perf = llama_cpp.llama_perf_context(self.client.ctx)
            prefill = perf.n_p_eval / (perf.t_p_eval_ms / 1000) if perf.t_p_eval_ms else 0.0
            decode = perf.n_eval / (perf.t_eval_ms / 1000) if perf.t_eval_ms else 0.0
            return f"prefill {prefill:.{int(prefill < 10)}f} tokens/s, decode {decode:.{int(decode < 10)}f} tokens/s"
        total = (line.get("prompt_tokens") or 0) + (line.get("completion_tokens") or 0)
        return f"{total / max(seconds, 1e-6):.0f} tokens/s in all ({seconds:.1f} s)"


def long_run_inputs(inputs: dict, task) -> dict:
    """``inputs`` with every growing input as long as after a long run."""
    grown = dict(inputs)
    for trim in task.trim:
        lines = [line for line in str(inputs.get(trim.input, "")).splitlines() if line.strip()] or ["- a memory"]
        grown[trim.input] = "\n".join(lines[i % len(lines)] for i in range(LONG_RUN_LINES))
    return grown


def main(args, settings: Settings) -> int:
    doctor = Doctor(settings)
    try:
        checks = doctor.run()
    finally:
        # the probe's ledger and Chroma index were only for the checks: nothing is left behind
        shutil.rmtree(doctor.folder, ignore_errors=True)
    failed = [c for c in checks if not c.ok]
    print(f"{len(checks) - len(failed)} of {len(checks)} checks passed" + (f"; {len(failed)} to fix" if failed else ""))
    if args.json:
        print(json.dumps([c.__dict__ for c in checks]))
    return 1 if failed else 0
