"""The anchor gate's cold path is measured against: a minimal model of
PraisonAI's tool registry doing `gatectl check`'s job, with nothing but
the standard library imported.

It registers N tools, each with PraisonAI's availability shape (a lambda
answering whether an environment variable is set, with a reason, as
@tool(availability=...) takes), into a registry that follows
ToolRegistry.list_available_tools in praisonaiagents/tools/registry.py (a
TTL cache and a last-good grace window, under an RLock, probing while it
holds the lock), lists the available ones once and prints their names,
one a line: what `gatectl check` does for a manifest of N env-probed
tools.

    python3 pymodel.py N            # the whole job, as a process
    python3 pymodel.py N --cold-ns  # nanoseconds a tool of a cold listing
                                    # (an empty cache each time), in process
    python3 pymodel.py --manifest gate.toml
                                    # the whole job with the tools read from
                                    # a gate manifest of env-probed tools
                                    # (tomllib), as gate does with an empty
                                    # cache dir

The first form has its tools in code, as PraisonAI's are, so it parses
nothing: it is the anchor for a check that has its manifest parsed already
(a warm cache dir). The --manifest form reads and decodes the same file
gate does, with the standard library's TOML decoder: the anchor for a
check with an empty cache dir.
"""
import os
import sys
import threading
import time


class Registry:
    def __init__(self):
        self._tools = {}
        self._lock = threading.RLock()
        self._cache = {}
        self._last_success = {}
        self._ttl = 30.0
        self._grace = 30.0

    def register(self, name, tool):
        with self._lock:
            if name not in self._tools:
                self._tools[name] = tool

    def list_available_tools(self):
        out = []
        with self._lock:
            now = time.time()
            for name, tool in self._tools.items():
                check = tool.get("check_availability")
                if check is None:
                    out.append(tool)
                    continue
                hit = self._cache.get(name)
                if hit is not None and now - hit[1] < self._ttl:
                    if hit[0]:
                        out.append(tool)
                    continue
                try:
                    ok, _reason = check()
                except Exception:
                    last = self._last_success.get(name)
                    if last is not None and now - last < self._grace:
                        out.append(tool)
                    else:
                        self._cache[name] = (False, now)
                    continue
                self._cache[name] = (ok, now)
                if ok:
                    self._last_success[name] = now
                    out.append(tool)
        return out


def env_check(var):
    return lambda: (bool(os.getenv(var)), f"{var} missing")


def registry(n):
    reg = Registry()
    for i in range(n):
        reg.register(f"tool_{i}", {
            "name": f"tool_{i}",
            "description": f"Tool number {i}.",
            "parameters": {"type": "object", "properties": {"q": {"type": "string"}}, "required": ["q"]},
            "check_availability": env_check(f"GATE_BENCH_{i}"),
        })
    return reg


def manifest_registry(path):
    # Imported here, so that the form with its tools in code pays nothing
    # for it.
    import tomllib
    with open(path, "rb") as f:
        doc = tomllib.load(f)
    reg = Registry()
    for t in doc.get("tools", []):
        probe = t["probe"]
        if not probe.startswith("env:"):
            raise SystemExit(f"{path}: tool {t['name']}: not an env probe: {probe}")
        reg.register(t["name"], {
            "name": t["name"],
            "description": t.get("description", ""),
            "parameters": t.get("parameters", {}),
            "check_availability": env_check(probe[len("env:"):]),
        })
    return reg


def main():
    if sys.argv[1] == "--manifest":
        print("\n".join(t["name"] for t in manifest_registry(sys.argv[2]).list_available_tools()))
        return
    n = int(sys.argv[1])
    if sys.argv[2:] == ["--cold-ns"]:
        reg = registry(n)
        best = None
        for _ in range(50):
            reg._cache.clear()
            reg._last_success.clear()
            t0 = time.perf_counter_ns()
            reg.list_available_tools()
            took = time.perf_counter_ns() - t0
            best = took if best is None else min(best, took)
        print(best / n)
        return
    print("\n".join(t["name"] for t in registry(n).list_available_tools()))


main()
