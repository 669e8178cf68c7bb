#!/usr/bin/env python3
"""Drives `hybrid debug-adapter` over stdio as an editor would, through the TypeScript app in
fixtures/debug-app: breakpoints in .ts lines (one a logpoint with a hit count, in a module not
loaded yet), launch, the stop at the .ts line, the stack, scopes and variables (a Map's entries,
a Promise's state), evaluate, set variable, step over, in and out, an uncaught exception, the run
to the end; the kv calls made around the pauses are all answered (the app prints both). Then a
plain JavaScript module (the stop on entry, a conditional breakpoint, pause, terminate) and a
caught exception (stopped under the filter "all", not under "uncaught"). Last, a launch of a
folder of test files (fixtures/debug-tests): each file a thread, a breakpoint in each.

First the same adapter against fake_hybrid.py, a scripted inspector (the adapter's own side,
apart from the engine's), then against the real `hybrid run --inspect-brk`.

Usage: Tests/DebugAdapter/dap_client.py [path/to/hybrid] [--fake-only]   (default .build/debug/hybrid)
Exit 0 when every check passed; otherwise the failed check, and what the adapter said, on stderr.
"""
import json
import os
import queue
import subprocess
import sys
import tempfile
import threading
import time

HERE = os.path.dirname(os.path.abspath(__file__))
APP = os.path.join(HERE, "fixtures", "debug-app")
MAIN = os.path.join(APP, "main.ts")
CART = os.path.join(APP, "cart.ts")
TIMEOUT = float(os.environ.get("DAP_TEST_TIMEOUT", "90"))


def marked_line(path, marker):
    """The 1-based line of `path` whose comment is `// MARKER`."""
    with open(path) as file:
        for number, text in enumerate(file, 1):
            if text.rstrip().endswith("// " + marker):
                return number
    raise SystemExit(f"{path}: no line marked // {marker}")


class Failure(Exception):
    pass


class Adapter:
    """The adapter as a child: requests written framed, messages read on a thread."""

    def __init__(self, hybrid):
        self.process = subprocess.Popen([hybrid, "debug-adapter"], stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        self.seq = 0
        self.messages = queue.Queue()
        self.events = []  # every event, in order, for the report
        self.output = []
        threading.Thread(target=self._read, daemon=True).start()
        threading.Thread(target=self._drain_stderr, daemon=True).start()
        self.stderr = []

    def _drain_stderr(self):
        for line in self.process.stderr:
            self.stderr.append(line.decode(errors="replace"))

    def _read(self):
        stream = self.process.stdout
        while True:
            headers = {}
            while True:
                line = stream.readline()
                if not line:
                    self.messages.put(None)
                    return
                line = line.decode().strip()
                if not line:
                    break
                name, _, value = line.partition(":")
                headers[name.strip().lower()] = value.strip()
            body = stream.read(int(headers["content-length"]))
            message = json.loads(body)
            if message.get("type") == "event":
                self.events.append(message)
                if message["event"] == "output":
                    self.output.append(message["body"].get("output", ""))
            self.messages.put(message)

    def send(self, command, arguments=None):
        self.seq += 1
        message = {"seq": self.seq, "type": "request", "command": command}
        if arguments is not None:
            message["arguments"] = arguments
        body = json.dumps(message).encode()
        self.process.stdin.write(b"Content-Length: %d\r\n\r\n" % len(body) + body)
        self.process.stdin.flush()
        return self.seq

    def next_message(self, deadline, what):
        remaining = deadline - time.monotonic()
        if remaining <= 0:
            raise Failure(f"timed out waiting for {what}")
        try:
            message = self.messages.get(timeout=remaining)
        except queue.Empty:
            raise Failure(f"timed out waiting for {what}")
        if message is None:
            raise Failure(f"the adapter closed its output while waiting for {what}")
        return message

    def request(self, command, arguments=None, success=True):
        """Sends a request and returns its response's body; other messages meanwhile stay queued
        for wait_event (in order)."""
        seq = self.send(command, arguments)
        deadline = time.monotonic() + TIMEOUT
        held = []
        try:
            while True:
                message = self.next_message(deadline, f"the response to {command}")
                if message.get("type") == "response" and message.get("request_seq") == seq:
                    if message["success"] != success:
                        raise Failure(f"{command}: expected success={success}, got {message}")
                    return message.get("body") or {} if success else message
                held.append(message)
        finally:
            pending = []
            while not self.messages.empty():
                pending.append(self.messages.get())
            for message in held + pending:
                self.messages.put(message)

    def wait_event(self, name, check=None):
        deadline = time.monotonic() + TIMEOUT
        while True:
            message = self.next_message(deadline, f"the {name} event")
            if message.get("type") == "event" and message["event"] == name and (check is None or check(message["body"])):
                return message.get("body") or {}

    def wait_output(self, text):
        deadline = time.monotonic() + TIMEOUT
        while text not in "".join(self.output):
            if time.monotonic() > deadline:
                raise Failure(f"timed out waiting for output {text!r}; output so far: {''.join(self.output)!r}")
            time.sleep(0.05)


def expect(condition, message):
    if not condition:
        raise Failure(message)


def top_frame(adapter):
    frames = adapter.request("stackTrace", {"threadId": 1})["stackFrames"]
    expect(frames, "an empty stack while paused")
    return frames[0], frames


def disconnect(adapter):
    """The editor's last request; the adapter then exits 0."""
    adapter.request("disconnect", {})
    expect(adapter.process.wait(timeout=TIMEOUT) == 0, "the adapter's exit status")


def variables_of(adapter, reference):
    return {v["name"]: v for v in adapter.request("variables", {"variablesReference": reference})["variables"]}


def run_fake(hybrid):
    """The adapter against fake_hybrid.py's scripted inspector: its own side, apart from the engine's."""
    folder = tempfile.mkdtemp(prefix="dap-fake-")
    program = os.path.join(folder, "app.js")
    with open(program, "w") as file:
        file.write("function f() {\n  const x = 5;\n  return x;\n}\nf();\n")
    def steps(adapter):
        adapter.request("initialize", {"adapterID": "hybrid"})
        adapter.request("launch", {"program": program, "runtimeExecutable": os.path.join(HERE, "fake_hybrid.py")})
        adapter.wait_event("initialized")
        placed = adapter.request("setBreakpoints", {"source": {"path": program}, "breakpoints": [{"line": 3}]})["breakpoints"]
        expect(placed == [{"id": placed[0]["id"], "verified": True, "source": {"name": "app.js", "path": program}, "line": 3}], f"placed: {placed}")
        adapter.request("setExceptionBreakpoints", {"filters": []})
        adapter.request("configurationDone")
        stopped = adapter.wait_event("stopped")
        expect(stopped["reason"] == "breakpoint" and stopped["hitBreakpointIds"] == [placed[0]["id"]], f"stopped: {stopped}")
        frames = adapter.request("stackTrace", {"threadId": 1})["stackFrames"]
        expect([(f["name"], f["line"], f["column"]) for f in frames] == [("f", 3, 3), ("(anonymous)", 1, 3)], f"frames (the host's hidden): {frames}")
        scopes = adapter.request("scopes", {"frameId": frames[0]["id"]})["scopes"]
        expect([(s["name"], s["expensive"]) for s in scopes] == [("Local", False), ("Global", True)], f"scopes: {scopes}")
        local = variables_of(adapter, scopes[0]["variablesReference"])
        expect(local["x"]["value"] == "5" and local["list"]["value"] == "Array(2)", f"locals: {local}")
        listed = variables_of(adapter, local["list"]["variablesReference"])
        expect(listed["0"]["value"] == '"a"', f"list: {listed}")
        result = adapter.request("evaluate", {"expression": "x * 2 + 32", "frameId": frames[0]["id"], "context": "repl"})
        expect(result["result"] == "42", f"evaluate: {result}")
        failed = adapter.request("evaluate", {"expression": "nope", "frameId": frames[0]["id"], "context": "repl"}, success=False)
        expect("Can't find variable: nope" in failed["message"], f"a throwing evaluate: {failed}")
        adapter.request("continue", {"threadId": 1})
        adapter.wait_output("fake app done")
        exited = adapter.wait_event("exited")
        expect(exited["exitCode"] == 0, f"exited: {exited}")
        adapter.wait_event("terminated")
        disconnect(adapter)
        print("dap_client: fake inspector ok")
    return session(hybrid, steps, scratch=folder)


def run_ticker(hybrid):
    """A plain JavaScript module: the stop on entry, a conditional breakpoint on a .js line, a
    pause of the running app, terminate."""
    ticker = os.path.join(HERE, "fixtures", "ticker.js")
    data = tempfile.mkdtemp(prefix="dap-ticker-")
    def steps(adapter):
        adapter.request("initialize", {"adapterID": "hybrid"})
        launched = time.monotonic()
        adapter.request("launch", {"program": ticker, "dataDir": data, "stopOnEntry": True})
        adapter.wait_event("initialized")
        adapter.request("configurationDone")
        stopped = adapter.wait_event("stopped")
        to_entry = time.monotonic() - launched
        frame, _ = top_frame(adapter)
        expect(stopped["reason"] == "entry" and frame["source"]["path"] == ticker and frame["line"] == marked_line(ticker, "FIRST"),
               f"the entry stop: {stopped} at {frame}")
        tick_line = marked_line(ticker, "TICK")
        placed = adapter.request("setBreakpoints", {"source": {"path": ticker}, "breakpoints": [{"line": tick_line, "condition": "ticks === 3"}]})["breakpoints"]
        expect(placed[0]["verified"] and placed[0]["line"] == tick_line, f"the .js breakpoint: {placed}")
        adapter.request("continue", {"threadId": 1})
        stopped = adapter.wait_event("stopped")
        frame, _ = top_frame(adapter)
        expect(stopped["reason"] == "breakpoint" and frame["line"] == tick_line and frame["name"] == "tick", f"the conditional stop: {stopped} at {frame}")
        result = adapter.request("evaluate", {"expression": "ticks", "frameId": frame["id"], "context": "watch"})
        expect(result["result"] == "3", f"the condition let ticks {result['result']} through")
        adapter.request("setBreakpoints", {"source": {"path": ticker}, "breakpoints": []})
        adapter.request("continue", {"threadId": 1})
        adapter.wait_event("continued")
        adapter.request("pause", {"threadId": 1})
        stopped = adapter.wait_event("stopped")
        expect(stopped["reason"] == "pause", f"the pause: {stopped}")
        result = adapter.request("evaluate", {"expression": "ticks > 3", "context": "repl"})
        expect(result["result"] == "true", f"after the pause: {result}")
        adapter.request("terminate", {})
        adapter.wait_event("exited")
        adapter.wait_event("terminated")
        disconnect(adapter)
        print(f"dap_client: plain JavaScript, pause and terminate ok (launch to the entry stop {to_entry:.2f} s)")
    return session(hybrid, steps, scratch=data)


def run_caught(hybrid):
    """A caught exception stops the app under the filter "all" and not under "uncaught"."""
    folder = tempfile.mkdtemp(prefix="dap-caught-")
    program = os.path.join(folder, "caught.js")
    with open(program, "w") as file:
        file.write('function risky() { throw new TypeError("caught one"); }\ntry { risky(); } catch (error) { console.log("handled", error.message); }\n')
    try:
        for filters, expected in ((["all"], [("exception", "TypeError: caught one", 1, "always")]), (["uncaught"], [])):
            def steps(adapter):
                adapter.request("initialize", {"adapterID": "hybrid"})
                adapter.request("launch", {"program": program, "dataDir": folder})
                adapter.wait_event("initialized")
                adapter.request("setExceptionBreakpoints", {"filters": filters})
                adapter.request("configurationDone")
                stops = []
                deadline = time.monotonic() + TIMEOUT
                while True:
                    message = adapter.next_message(deadline, "the app's end")
                    if message.get("event") == "stopped":
                        frame, _ = top_frame(adapter)
                        info = adapter.request("exceptionInfo", {"threadId": 1})
                        stops.append((message["body"]["reason"], message["body"].get("text"), frame["line"], info["breakMode"]))
                        adapter.request("continue", {"threadId": 1})
                    elif message.get("event") == "terminated":
                        break
                expect(stops == expected, f"filters {filters}: stops {stops}, expected {expected}")
                expect("handled caught one" in "".join(adapter.output), f"the app's output: {adapter.output}")
                adapter.request("disconnect", {})
            if session(hybrid, steps):
                return 1
        print("dap_client: caught exceptions ok")
        return 0
    finally:
        subprocess.run(["rm", "-rf", folder])


def run_tests(hybrid):
    """A launch of test files (`hybrid test --inspect-brk`): each file's context a thread of its own,
    one after the other; a breakpoint in each, set before either ran; the TAP stream in the console."""
    folder = os.path.join(HERE, "fixtures", "debug-tests")
    first, second = os.path.join(folder, "first.test.ts"), os.path.join(folder, "second.test.js")
    def steps(adapter):
        begun = time.monotonic()
        adapter.request("initialize", {"adapterID": "hybrid"})
        adapter.request("launch", {"program": folder, "test": True})
        adapter.wait_event("initialized")
        for path in (first, second):
            placed = adapter.request("setBreakpoints", {"source": {"path": path}, "breakpoints": [{"line": marked_line(path, "BREAK")}]})["breakpoints"]
            # Set in each test file as it starts (none may have started yet).
            expect(len(placed) == 1 and placed[0]["line"] == marked_line(path, "BREAK"), f"{path}: {placed}")
        adapter.request("configurationDone")
        stops, stop_times = [], []
        for path, name, value in ((first, "total", "7"), (second, "product", "42")):
            started = adapter.wait_event("thread", lambda body: body["reason"] == "started")
            thread = started["threadId"]
            expect(all(thread != seen for seen, _ in stops), f"thread {thread} again")
            stopped = adapter.wait_event("stopped")
            stop_times.append(time.monotonic() - begun)
            expect(stopped["reason"] == "breakpoint" and stopped["threadId"] == thread, f"{path}: stopped {stopped} on thread {thread}")
            threads = adapter.request("threads")["threads"]
            expect([t["id"] for t in threads] == [thread] and threads[0]["name"] == os.path.basename(path), f"threads: {threads}")
            frames = adapter.request("stackTrace", {"threadId": thread})["stackFrames"]
            expect(frames[0]["source"]["path"] == path and frames[0]["line"] == marked_line(path, "BREAK"), f"stopped at {frames[0]}, expected {path}")
            scopes = adapter.request("scopes", {"frameId": frames[0]["id"]})["scopes"]
            local = variables_of(adapter, scopes[0]["variablesReference"])
            expect(local.get(name, {}).get("value") == value, f"{path}: locals {local}")
            stops.append((thread, path))
            adapter.request("continue", {"threadId": thread})
            exited = adapter.wait_event("thread", lambda body: body["reason"] == "exited")
            expect(exited["threadId"] == thread, f"thread exited: {exited}, expected {thread}")
        exited = adapter.wait_event("exited")
        expect(exited["exitCode"] == 0, f"exited: {exited}; output: {''.join(adapter.output)}")
        adapter.wait_event("terminated")
        output = "".join(adapter.output)
        expect("# pass 2\n" in output and "# fail 0\n" in output, f"the TAP stream: {output}")
        disconnect(adapter)
        print(f"dap_client: test files as threads ok (stops {stop_times[0]:.2f} s and {stop_times[1]:.2f} s after initialize)")
    return session(hybrid, steps)


def session(hybrid, steps, scratch=None):
    """Runs steps(adapter) against an adapter of its own: 0 when they pass, 1 with the adapter's
    last events and stderr when one fails. The adapter is killed, and `scratch` removed, either way."""
    adapter = Adapter(hybrid)
    try:
        steps(adapter)
        return 0
    except Failure as failure:
        return report(adapter, failure)
    finally:
        if adapter.process.poll() is None:
            adapter.process.kill()
        if scratch is not None:
            subprocess.run(["rm", "-rf", scratch])


def report(adapter, failure):
    print(f"dap_client: FAILED: {failure}", file=sys.stderr)
    print("events:", file=sys.stderr)
    for event in adapter.events[-40:]:
        print("  " + json.dumps(event)[:400], file=sys.stderr)
    print("adapter stderr:\n" + "".join(adapter.stderr)[-4000:], file=sys.stderr)
    return 1


def run(hybrid):
    data = tempfile.mkdtemp(prefix="dap-test-")
    def steps(adapter):
        started = time.monotonic()
        capabilities = adapter.request("initialize", {"adapterID": "hybrid", "linesStartAt1": True, "columnsStartAt1": True, "pathFormat": "path"})
        expect(capabilities.get("supportsConfigurationDoneRequest"), f"capabilities: {capabilities}")
        expect({f["filter"] for f in capabilities["exceptionBreakpointFilters"]} == {"uncaught", "all"}, "exception filters")
        adapter.request("launch", {"program": APP, "dataDir": data, "stopOnEntry": False})
        adapter.wait_event("initialized")

        break_line, step_line, after_line = marked_line(MAIN, "BREAK"), marked_line(MAIN, "STEP"), marked_line(MAIN, "AFTER")
        placed = adapter.request("setBreakpoints", {"source": {"path": MAIN}, "breakpoints": [{"line": break_line}]})["breakpoints"]
        expect(placed[0]["verified"] and placed[0]["line"] == break_line, f"main.ts breakpoint: {placed}")
        main_breakpoint = placed[0]["id"]
        logpoint = marked_line(CART, "LOGPOINT")
        placed = adapter.request("setBreakpoints", {"source": {"path": CART},
                                                    "breakpoints": [{"line": logpoint, "logMessage": "item {item.title} costs {item.price}", "hitCondition": "2"}]})["breakpoints"]
        expect(len(placed) == 1, f"cart.ts logpoint: {placed}")
        adapter.request("setExceptionBreakpoints", {"filters": ["uncaught"]})
        adapter.request("configurationDone")

        # The stop at the .ts line, after the first kv calls were answered.
        stopped = adapter.wait_event("stopped")
        first_stop = time.monotonic() - started
        expect(stopped["reason"] == "breakpoint" and stopped.get("hitBreakpointIds") == [main_breakpoint], f"first stop: {stopped}")
        frame, frames = top_frame(adapter)
        expect(frame["source"]["path"] == MAIN and frame["line"] == break_line, f"stopped at {frame}, expected main.ts:{break_line}")
        expect(frame["name"] == "main", f"frame name {frame['name']}")
        expect(all(f["source"]["path"] in (MAIN, CART) for f in frames), f"frames outside the app: {frames}")
        threads = adapter.request("threads")["threads"]
        expect(threads == [{"id": 1, "name": "debug-app"}], f"threads: {threads}")

        scopes = adapter.request("scopes", {"frameId": frame["id"]})["scopes"]
        expect(scopes[0]["name"] == "Local", f"scopes: {scopes}")
        local = variables_of(adapter, scopes[0]["variablesReference"])
        expect("before" in local and "pending" in local, f"locals: {sorted(local)}")
        before = variables_of(adapter, local["before"]["variablesReference"])
        expect("value" in before and before["value"]["value"] == "{n: 1}", f"before: {before}")
        promise = variables_of(adapter, local["pending"]["variablesReference"])
        states = {name: v["value"] for name, v in promise.items() if name.startswith("[[")}
        expect(any("resolved" in value or "fulfilled" in value for value in states.values()) and any(v == "42" for v in states.values()),
               f"the Promise's state: {promise}")
        # The module's bindings, in an outer scope: the Map opens to its entries.
        outer = {}
        for scope in scopes[1:]:
            if not scope.get("expensive"):
                outer.update(variables_of(adapter, scope["variablesReference"]))
        expect("tags" in outer and "items" in outer, f"outer scopes: {sorted(outer)}")
        expect(outer["tags"]["value"].startswith("Map(2)"), f"tags: {outer['tags']}")
        entries = variables_of(adapter, variables_of(adapter, outer["tags"]["variablesReference"])["[[Entries]]"]["variablesReference"])
        expect([v["value"] for v in entries.values()] == ['"a" => 1', '"b" => 2'], f"the Map's entries: {entries}")
        items = variables_of(adapter, outer["items"]["variablesReference"])
        expect(items["1"]["value"] == '{title: "bread", price: 3}', f"items: {items}")

        result = adapter.request("evaluate", {"expression": "items.length + before.value.n * 40", "frameId": frame["id"], "context": "repl"})
        expect(result["result"] == "42", f"evaluate: {result}")
        failed = adapter.request("evaluate", {"expression": "nope.x", "frameId": frame["id"], "context": "repl"}, success=False)
        expect("nope" in failed.get("message", ""), f"a throwing evaluate: {failed}")

        # Step over to the next line, into total() in cart.ts, and out again.
        adapter.request("next", {"threadId": 1})
        stopped = adapter.wait_event("stopped")
        frame, _ = top_frame(adapter)
        expect(stopped["reason"] == "step" and frame["line"] == step_line, f"after next: {stopped} at {frame}")
        adapter.request("stepIn", {"threadId": 1})
        stopped = adapter.wait_event("stopped")
        frame, frames = top_frame(adapter)
        expect(stopped["reason"] == "step" and frame["source"]["path"] == CART, f"after stepIn: {stopped} at {frame}")
        expect(frames[1]["source"]["path"] == MAIN and frames[1]["line"] == step_line, f"the caller: {frames[1]}")
        adapter.request("stepOut", {"threadId": 1})
        stopped = adapter.wait_event("stopped")
        frame, _ = top_frame(adapter)
        expect(stopped["reason"] == "step" and frame["source"]["path"] == MAIN and frame["line"] in (step_line, after_line), f"after stepOut: {frame}")
        if frame["line"] == step_line:
            adapter.request("next", {"threadId": 1})
            adapter.wait_event("stopped")
            frame, _ = top_frame(adapter)
        expect(frame["line"] == after_line, f"expected main.ts:{after_line}, at {frame}")
        adapter.wait_output("item bread costs 3")
        expect("item milk" not in "".join(adapter.output), "the logpoint's hit count let the first hit through")

        # Set a local, and see the app use it.
        scopes = adapter.request("scopes", {"frameId": frame["id"]})["scopes"]
        changed = adapter.request("setVariable", {"variablesReference": scopes[0]["variablesReference"], "name": "count", "value": "10"})
        expect(changed["value"] == "10", f"setVariable: {changed}")

        # Run on: the kv calls after the pause are answered; the uncaught error stops.
        adapter.request("continue", {"threadId": 1})
        adapter.wait_output('before {"n":1} after {"n":11} sum 5 2 1 42')
        stopped = adapter.wait_event("stopped")
        expect(stopped["reason"] == "exception" and "boom at the end" in stopped.get("text", ""), f"the exception stop: {stopped}")
        frame, _ = top_frame(adapter)
        expect(frame["source"]["path"] == MAIN and frame["line"] == marked_line(MAIN, "THROW"), f"the exception at {frame}")
        info = adapter.request("exceptionInfo", {"threadId": 1})
        expect("boom at the end" in info["description"], f"exceptionInfo: {info}")

        adapter.request("continue", {"threadId": 1})
        exited = adapter.wait_event("exited")
        expect(exited["exitCode"] == 1, f"exit code {exited}")
        adapter.wait_event("terminated")
        disconnect(adapter)
        print(f"dap_client: ok (first stop {first_stop:.2f} s after initialize)")
    return session(hybrid, steps, scratch=data)


if __name__ == "__main__":
    arguments = [a for a in sys.argv[1:] if not a.startswith("--")]
    hybrid = os.path.abspath(arguments[0] if arguments else ".build/debug/hybrid")
    status = run_fake(hybrid)
    if status == 0 and "--fake-only" not in sys.argv:
        status = run(hybrid) or run_ticker(hybrid) or run_caught(hybrid) or run_tests(hybrid)
    sys.exit(status)
