#!/usr/bin/env python3
"""Follow gate's tool availability from Python (standard library only, 3.9+).

Fetches the tool schema a model would be offered now (GET /v1/schema), prints
the tool names, then follows the change stream (GET /v1/events): on every
change it prints the change and fetches the schema again, which is what an
agent does to refresh its tool list at once instead of polling.

    python3 gate_client.py [--url http://127.0.0.1:7311] [--format openai]
                           [--max-events N] [--timeout SECONDS]

The bearer token, when the server requires one, is read from GATE_TOKEN.
Exit codes: 0 done (N changes seen, or --timeout reached without
--max-events), 1 --timeout reached before N changes, 2 the server refused or
could not be reached.
"""

import argparse
import json
import os
import socket
import sys
import time
import urllib.error
import urllib.request

# The server sends ": ping" every 15 s; three missed pings mean the
# connection is gone even if no FIN arrived, so reconnect.
READ_TIMEOUT = 45.0


class Refused(Exception):
    """The server answered with an error status, or could not be reached."""


def request(url, token, timeout):
    req = urllib.request.Request(url)
    if token:
        req.add_header("Authorization", "Bearer " + token)
    try:
        return urllib.request.urlopen(req, timeout=timeout)
    except urllib.error.HTTPError as e:
        try:
            message = json.loads(e.read().decode("utf-8"))["error"]
        except (ValueError, KeyError, TypeError):
            message = e.reason
        raise Refused(f"{url}: {e.code} {message}") from None
    except (urllib.error.URLError, OSError) as e:
        raise Refused(f"{url}: {e}") from None


def tool_names(schema, fmt):
    """The names of the tools in a schema of the given format."""
    if fmt == "openai":
        return [t["function"]["name"] for t in schema]
    if fmt == "anthropic":
        return [t["name"] for t in schema]
    return [t["name"] for t in schema["tools"]]  # mcp


def print_tools(base, fmt, token):
    with request(f"{base}/v1/schema?format={fmt}", token, 10) as resp:
        names = tool_names(json.load(resp), fmt)
    print(f"tools ({len(names)}): {', '.join(names)}", flush=True)


def events(resp):
    """Yields (event, data) for each server-sent event; comments (pings)
    are skipped. Ends when the server closes the stream."""
    event, data = "", []
    for raw in resp:  # an HTTPResponse reads line by line, chunked or not
        line = raw.decode("utf-8").rstrip("\r\n")
        if not line:
            if event or data:
                yield event or "message", "\n".join(data)
            event, data = "", []
        elif line.startswith(":"):
            continue
        else:
            field, _, value = line.partition(":")
            value = value[1:] if value.startswith(" ") else value
            if field == "event":
                event = value
            elif field == "data":
                data.append(value)


def describe(change):
    text = f"change: {change['type']} {change['name']} {change['state']}"
    if change.get("graced"):
        text += " (graced)"
    if change.get("reason"):
        text += f": {change['reason']}"
    return text


def follow(args, token):
    deadline = time.monotonic() + args.timeout if args.timeout else None
    seen = 0
    while True:
        # (Re)connecting: read the whole state first, then only changes.
        print_tools(args.url, args.format, token)
        read_timeout = READ_TIMEOUT
        if deadline is not None:
            read_timeout = max(0.05, min(READ_TIMEOUT, deadline - time.monotonic()))
        try:
            with request(f"{args.url}/v1/events", token, read_timeout) as resp:
                for event, data in events(resp):
                    if event == "hello":
                        generation = json.loads(data)["generation"]
                        print(f"connected (generation {generation})", flush=True)
                    elif event == "change":
                        print(describe(json.loads(data)), flush=True)
                        print_tools(args.url, args.format, token)
                        seen += 1
                        if args.max_events and seen >= args.max_events:
                            return 0
                    elif event == "overflow":
                        print("overflow: this client fell behind; resyncing", flush=True)
                        break
                    if deadline is not None and time.monotonic() >= deadline:
                        break
                else:
                    print("the stream ended; reconnecting", flush=True)
        except (socket.timeout, TimeoutError):
            if deadline is None or time.monotonic() < deadline:
                print(f"no ping in {READ_TIMEOUT:.0f}s; reconnecting", flush=True)
        if deadline is not None and time.monotonic() >= deadline:
            if args.max_events:
                print(f"timed out after {args.timeout}s with {seen} of {args.max_events} changes", file=sys.stderr)
                return 1
            return 0
        time.sleep(1)


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--url", default="http://127.0.0.1:7311", help="the gate server (default %(default)s)")
    p.add_argument("--format", default="openai", choices=["openai", "anthropic", "mcp"])
    p.add_argument("--max-events", type=int, default=0, metavar="N", help="stop after N changes (default: never)")
    p.add_argument("--timeout", type=float, default=0, metavar="SECONDS", help="stop following after this long (default: never)")
    args = p.parse_args(argv)
    args.url = args.url.rstrip("/")
    try:
        return follow(args, os.environ.get("GATE_TOKEN", ""))
    except Refused as e:
        print(f"gate_client: {e}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        return 0


if __name__ == "__main__":
    sys.exit(main())
